import { z } from "zod";
import { isValidCnpj, isValidCpf, onlyDigits } from "../../lib/shared/cpf-cnpj";
import { amountToCents, isExactAmount } from "../../lib/shared/money";
import { parseDateTime } from "../clock";
import { chargeStatuses } from "./charges";

/** A wire amount (number, min 0.01, at most two decimals) as integer cents. */
export const ZAmountCents = z
  .number({ error: "obrigatório (número)" })
  .min(0.01, "valor mínimo 0.01")
  .max(999_999_999.99, "valor máximo 999999999.99")
  .refine(isExactAmount, "no máximo duas casas decimais")
  .transform((amount) => amountToCents(amount));

const ZCpf = z.string().refine(isValidCpf, "CPF inválido").transform(onlyDigits);
const ZCnpj = z.string().refine(isValidCnpj, "CNPJ inválido").transform(onlyDigits);

const ZDebtor = z
  .object({
    name: z.string({ error: "obrigatório" }).trim().min(1, "obrigatório").max(200, "máximo de 200 caracteres"),
    naturalPersonIdentification: ZCpf.optional(),
    legalPersonIdentification: ZCnpj.optional(),
  })
  .refine(
    (debtor) => (debtor.naturalPersonIdentification === undefined) !== (debtor.legalPersonIdentification === undefined),
    {
      message: "informe naturalPersonIdentification (CPF) ou legalPersonIdentification (CNPJ), um dos dois",
      path: ["naturalPersonIdentification"],
    },
  );

const ZOptionalText = (max: number) => z.string().max(max, `máximo de ${max} caracteres`).optional();

export const ZCreateCharge = z.object(
  {
    amount: ZAmountCents,
    expiration: z.number().int("deve ser inteiro").min(1, "mínimo 1 segundo").max(2_147_483_647).default(3600),
    debtor: ZDebtor.nullish(),
    description: ZOptionalText(140),
    userReference: ZOptionalText(100),
  },
  { error: "corpo JSON obrigatório" },
);

export const ZRequestRefund = z.object(
  {
    txid: z.string({ error: "obrigatório" }).min(1, "obrigatório"),
    amount: ZAmountCents,
    description: ZOptionalText(140),
    userReference: ZOptionalText(100),
    sendWebhook: z.boolean().optional(),
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
  .object({
    payerName: z.string().trim().min(1).max(200).optional(),
    payerDocumentNumber: z
      .string()
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
