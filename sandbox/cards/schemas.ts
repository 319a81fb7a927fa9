import { z } from "zod";
import {
  brandFromBandeiraCartao,
  detectCardBrand,
  isCardExpiryFormat,
  isCardExpiryValid,
  passesLuhn,
} from "../../lib/shared/card";
import { amountToCents, isExactAmount } from "../../lib/shared/money";
import { now } from "../clock";
import { config } from "../config";
import { integer, optionalText, requiredText, tooLong, typeError } from "../http/fields";

// Request bodies of the card endpoints. Messages never echo the submitted value: it may be a card number.

/**
 * `tipoParcelamento` (meaning "not shown" in the spec; our reading, in sandbox/README.md):
 * 3 credit in one payment, 4 installments without interest (merchant), 6 installments with interest
 * (issuer), 7 debit. The spec ties no installment count to a type, so by default every type takes any
 * count; only SANDBOX_STRICT_INSTALLMENTS=1 holds 3 and 7 to exactly one installment.
 */
const singleInstallmentTypes: ReadonlySet<string> = new Set(["3", "7"]);
export const debitInstallmentType = "7";

// The spec's minimum is 1 and it shows no maximum. 99 is what a real gateway takes: the installment count travels
// to the authorizer in a two-digit field. The strict option applies 12, where Brazilian card installments stop in
// practice.
const maxInstallments = 99;
const strictMaxInstallments = 12;

/** The largest `numeroParcelas` accepted now (payments, link confirm and link creation). */
function installmentCap(): number {
  return config().strictInstallments ? strictMaxInstallments : maxInstallments;
}

/** Field check for `numeroParcelas`: read at parse time, so the option applies without rebuilding the schemas. */
export function checkInstallmentCap(numeroParcelas: number, ctx: z.RefinementCtx): void {
  const cap = installmentCap();
  if (numeroParcelas > cap) {
    const why = cap === maxInstallments ? " (o autorizador recebe a quantidade em 2 dígitos)" : "";
    ctx.addIssue({ code: "custom", message: `máximo ${cap} parcelas${why}` });
  }
}

const ZCardNumber = z
  .string({ error: typeError("texto") })
  .regex(/^\d{12,19}$/, { error: "deve ter de 12 a 19 dígitos, sem separadores" })
  .refine(passesLuhn, { error: "número de cartão inválido (Luhn)" });

const ZExpiry = z.string({ error: typeError("texto") }).refine(isCardExpiryFormat, { error: "formato MM/AA" });

const ZBandeiraCartao = z
  .string({ error: typeError("texto") })
  .refine((code) => brandFromBandeiraCartao(code) !== null, { error: "código de bandeira desconhecido" });

const ZAmount = z
  .number({ error: typeError("número") })
  .positive({ error: "deve ser maior que zero" })
  .refine(isExactAmount, { error: "no máximo duas casas decimais" })
  .transform((valor) => amountToCents(valor));

/** The number's brand must agree with the declared code, when the number's prefix tells a brand. */
function checkBrandMatches(numeroCartao: string | undefined, bandeiraCartao: string, ctx: z.RefinementCtx): void {
  if (numeroCartao === undefined) return;
  const detected = detectCardBrand(numeroCartao);
  if (detected && detected.bandeiraCartao !== bandeiraCartao) {
    ctx.addIssue({ code: "custom", path: ["bandeiraCartao"], message: "não corresponde à bandeira do cartão" });
  }
}

const installmentTypes = ["3", "4", "6", "7"] as const;

// 2.1 types tipoParcelamento as "enum (string)": the number 3 is not the text "3".
const ZInstallmentType = z.enum(installmentTypes, {
  error: (issue) =>
    issue.input === undefined
      ? "obrigatório"
      : typeof issue.input === "string"
        ? `valores aceitos: ${installmentTypes.join(", ")}`
        : `deve ser texto (string), um de: ${installmentTypes.map((type) => `"${type}"`).join(", ")}`,
});

/** Card payment request (spec 2.1). `valor` is turned into `amountCents`; a field outside 2.1 is a 400. */
export const ZCardPaymentRequest = z
  .strictObject({
    identificacaoPagamento: requiredText(),
    numeroParcelas: integer({ min: 1 }).superRefine(checkInstallmentCap),
    tipoParcelamento: ZInstallmentType,
    bandeiraCartao: ZBandeiraCartao,
    valor: ZAmount,
    dataExpiracao: ZExpiry.optional(),
    codigoSeguranca: z
      .string({ error: typeError("texto") })
      .regex(/^\d{3,4}$/, { error: "3 ou 4 dígitos" })
      .optional(),
    numeroCartao: ZCardNumber.optional(),
    token: requiredText().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.numeroCartao === undefined && body.token === undefined) {
      ctx.addIssue({ code: "custom", path: ["numeroCartao"], message: "informe numeroCartao ou token" });
    }
    if (body.numeroCartao !== undefined && body.token !== undefined) {
      ctx.addIssue({ code: "custom", path: ["token"], message: "informe numeroCartao ou token, não ambos" });
    }
    if (config().strictInstallments && singleInstallmentTypes.has(body.tipoParcelamento) && body.numeroParcelas !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["numeroParcelas"],
        message: `tipoParcelamento ${body.tipoParcelamento} aceita só 1 parcela`,
      });
    }
    checkBrandMatches(body.numeroCartao, body.bandeiraCartao, ctx);
  })
  .transform(({ valor, ...body }) => ({ ...body, amountCents: valor }));

export type TCardPaymentRequest = z.output<typeof ZCardPaymentRequest>;

/** Create card body (spec 4.2). An expired card is a 400 here; in a payment it is the authorizer's refusal (54). */
export const ZCreateCardRequest = z
  .strictObject({
    dataExpiracao: ZExpiry,
    numeroCartao: ZCardNumber,
    bandeiraCartao: ZBandeiraCartao,
    walletTransactionId: optionalText(),
    merchantUsn: z
      .string({ error: typeError("texto") })
      .max(12, { error: tooLong(12) })
      .optional(),
    clientId: optionalText(),
  })
  .superRefine((body, ctx) => {
    checkBrandMatches(body.numeroCartao, body.bandeiraCartao, ctx);
    if (isCardExpiryFormat(body.dataExpiracao) && !isCardExpiryValid(body.dataExpiracao, new Date(now()))) {
      ctx.addIssue({ code: "custom", path: ["dataExpiracao"], message: "cartão vencido" });
    }
  });

export type TCreateCardRequest = z.output<typeof ZCreateCardRequest>;
