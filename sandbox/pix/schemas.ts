import { z } from "zod";
import { isValidCnpj, isValidCpf, onlyDigits } from "../../lib/shared/cpf-cnpj";
import { amountToCents, isExactAmount } from "../../lib/shared/money";
import { parseDateTime } from "../clock";
import { optionalText, requiredText, tooLong, typeError } from "../http/fields";
import { chargeStatuses } from "./charges";

/** A wire amount (number, min 0.01, at most two decimals) as integer cents. */
const ZAmountCents = z
  .number({ error: typeError("número") })
  .min(0.01, "valor mínimo 0.01")
  .max(999_999_999.99, "valor máximo 999999999.99")
  .refine(isExactAmount, "no máximo duas casas decimais")
  .transform((amount) => amountToCents(amount));

const ZCpf = z
  .string({ error: typeError("texto") })
  .refine(isValidCpf, "CPF inválido")
  .transform(onlyDigits);
const ZCnpj = z
  .string({ error: typeError("texto") })
  .refine(isValidCnpj, "CNPJ inválido")
  .transform(onlyDigits);

const ZDebtor = z
  .strictObject(
    {
      name: requiredText(200),
      naturalPersonIdentification: ZCpf.optional(),
      legalPersonIdentification: ZCnpj.optional(),
    },
    { error: typeError("objeto") },
  )
  .refine(
    (debtor) => (debtor.naturalPersonIdentification === undefined) !== (debtor.legalPersonIdentification === undefined),
    {
      message: "informe naturalPersonIdentification (CPF) ou legalPersonIdentification (CNPJ), um dos dois",
      path: ["naturalPersonIdentification"],
    },
  );

// The charge's payload is "not shown" in the spec: its fields and limits are the sandbox's (README). A Pix
// description is at most 140 characters, as the Pix rules limit the payer's message (solicitacaoPagador).
export const ZCreateCharge = z.strictObject(
  {
    amount: ZAmountCents,
    expiration: z
      .number({ error: typeError("número") })
      .int("deve ser inteiro (segundos)")
      .min(1, "mínimo 1 segundo")
      .max(2_147_483_647, "máximo 2147483647 segundos")
      .default(3600),
    debtor: ZDebtor.nullish(),
    description: optionalText(140),
    userReference: optionalText(100),
  },
  { error: "corpo JSON obrigatório" },
);

// Spec 4.5: no length limits. The description goes to the payer in the Pix return, which the Pix rules cap at
// 140 characters, so that one stays (README); userReference is bounded only by the 1 MiB body.
export const ZRequestRefund = z.strictObject(
  {
    txid: requiredText(),
    amount: ZAmountCents,
    description: z
      .string({ error: typeError("texto") })
      .max(140, tooLong(140))
      .optional(),
    userReference: optionalText(),
    sendWebhook: z.boolean({ error: typeError("booleano") }).optional(),
  },
  { error: "corpo JSON obrigatório" },
);

const ZDateTimeParam = z.string({ error: "obrigatório" }).transform((value, ctx) => {
  const ms = parseDateTime(value);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: "custom", message: "data-hora ISO 8601 inválida" });
    return z.NEVER;
  }
  return ms;
});

export const ZListChargesQuery = z.object({
  initialDate: ZDateTimeParam,
  endDate: ZDateTimeParam,
  status: z.enum(chargeStatuses, { error: `use um de: ${chargeStatuses.join(", ")}` }).optional(),
  naturalPersonIdentification: z.string().transform(onlyDigits).optional(),
  legalPersonIdentification: z.string().transform(onlyDigits).optional(),
  userReference: z.string().optional(),
});

export const ZListRefundsQuery = z.object({
  initialDate: ZDateTimeParam.optional(),
  endDate: ZDateTimeParam.optional(),
  pixChargeTxid: z.string().optional(),
  status: z.enum(["1", "2", "3", "4", "99"], { error: "use um código: 1, 2, 3, 4 ou 99" }).transform(Number).optional(),
});

export const ZPayChargeControl = z
  .strictObject({
    payerName: requiredText(200).optional(),
    payerDocumentNumber: z
      .string({ error: typeError("texto") })
      .refine((value) => isValidCpf(value) || isValidCnpj(value), "CPF ou CNPJ inválido")
      .transform(onlyDigits)
      .optional(),
  })
  .optional();

/** Single-valued query parameters as an object (pagination parameters are read separately). */
export function queryObject(query: URLSearchParams, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = query.get(name);
    if (value !== null && value !== "") out[name] = value;
  }
  return out;
}
