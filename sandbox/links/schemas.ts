import { z } from "zod";
import { isValidCpfOrCnpj, onlyDigits } from "../../lib/shared/cpf-cnpj";
import { amountToCents, isExactAmount } from "../../lib/shared/money";
import { checkInstallmentCap } from "../cards/schemas";
import { integer, optionalText, requiredText, typeError } from "../http/fields";

// Create-link body (spec 4.3). Note the spelling: `metodosPagamentosAceitos` here, `metodosPagamentoAceitos` in responses.

const paymentMethodCodes = [1, 2] as const;
export type TPaymentMethodCode = (typeof paymentMethodCodes)[number];

// Defaults where the spec shows none (documented in sandbox/README.md).
const defaultDiasExpiracao = 7;
const maxDiasExpiracao = 365;
const defaultAcceptedMethods: TPaymentMethodCode[] = [1];

// Texts have no length limit in the spec, so none here beyond the 1 MiB request body; a field outside the spec's
// table (the response's spelling `metodosPagamentoAceitos` included) is a 400 that names it.
export const ZCreateLinkRequest = z
  .strictObject({
    nomePagador: requiredText(),
    numeroInscricao: requiredText(),
    valor: z
      .number({ error: typeError("número") })
      .positive({ error: "deve ser maior que zero" })
      .refine(isExactAmount, { error: "no máximo duas casas decimais" }),
    isEstrangeiro: z.boolean({ error: typeError("booleano") }).default(false),
    numeroParcelas: integer({ min: 1 }).superRefine(checkInstallmentCap).default(1),
    descricao: optionalText(),
    userReference: optionalText(),
    metodosPagamentosAceitos: z
      .array(
        z.literal(paymentMethodCodes, {
          error: (issue) =>
            typeof issue.input === "number"
              ? "valores aceitos: 1 (cartão), 2 (Pix)"
              : "deve ser número inteiro: 1 (cartão), 2 (Pix)",
        }),
        { error: typeError("lista") },
      )
      .min(1, { error: "informe ao menos um método" })
      .refine((codes) => new Set(codes).size === codes.length, { error: "métodos repetidos" })
      .optional(),
    // The spec shows no bounds; the sandbox keeps a link at most a year (sandbox/README.md).
    diasExpiracao: integer({ min: 1, max: maxDiasExpiracao, what: "dias" }).default(defaultDiasExpiracao),
  })
  .superRefine((body, ctx) => {
    if (!body.isEstrangeiro && !isValidCpfOrCnpj(body.numeroInscricao)) {
      ctx.addIssue({ code: "custom", path: ["numeroInscricao"], message: "CPF ou CNPJ inválido" });
    }
  })
  .transform(({ valor, numeroInscricao, metodosPagamentosAceitos, ...body }) => ({
    ...body,
    amountCents: amountToCents(valor),
    // A CPF/CNPJ is kept as digits; a foreign document as typed.
    numeroInscricao: body.isEstrangeiro ? numeroInscricao : onlyDigits(numeroInscricao),
    acceptedMethods: [...(metodosPagamentosAceitos ?? defaultAcceptedMethods)].sort((a, b) => a - b),
  }));

export type TCreateLinkRequest = z.output<typeof ZCreateLinkRequest>;

/** Control API body: any integer JSON can carry exactly (2.6 types tokenVerificacao as integer, no range). */
export const ZSetVerificationCode = z.strictObject(
  { tokenVerificacao: integer() },
  { error: "corpo JSON obrigatório" },
);

/** The body's status labels and the list filter's Portuguese names (spec 3.3). */
export const linkStatuses = {
  1: { description: "CREATED", filter: "ATIVO" },
  2: { description: "EXPIRED", filter: "EXPIRADO" },
  3: { description: "PAID", filter: "PAGO" },
  4: { description: "CANCELLED", filter: "CANCELADO" },
} as const;
export type TLinkStatusCode = keyof typeof linkStatuses;

const filterToCode = new Map(
  Object.entries(linkStatuses).map(([code, { filter }]) => [filter as string, Number(code) as TLinkStatusCode]),
);

const ZDateTimeParam = (name: string) =>
  z.string({ error: `${name} é obrigatório` }).regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?$/, {
    error: "data-hora ISO 8601 sem fuso, ex. 2026-05-15T00:00:00",
  });

/** List-links query (spec 4.3): startDate and endDate are required. */
export const ZListLinksQuery = z.object({
  startDate: ZDateTimeParam("startDate"),
  endDate: ZDateTimeParam("endDate"),
  paymentReceipt: z.string().optional(),
  status: z
    .string()
    .refine((name) => filterToCode.has(name), { error: "valores aceitos: ATIVO, EXPIRADO, PAGO, CANCELADO" })
    .transform((name) => filterToCode.get(name) as TLinkStatusCode)
    .optional(),
  paymentMethod: z.enum(["1", "2"], { error: "valores aceitos: 1, 2" }).transform(Number).optional(),
  registrationNumber: z.string().optional(),
  userReference: z.string().optional(),
});

export type TListLinksQuery = z.output<typeof ZListLinksQuery>;

export function queryToObject(query: URLSearchParams): Record<string, string> {
  return Object.fromEntries([...query.keys()].map((key) => [key, query.get(key) ?? ""]));
}
