import { z } from "zod";
import { ZQueryDateTime } from "./common";

// 3.3: the body shows {code, description} with English labels (1 CREATED, 3 PAID; the sandbox
// adds 2 EXPIRED, 4 CANCELLED); the list filter uses other, Portuguese names.
export const paymentLinkStatusFilters = ["ATIVO", "EXPIRADO", "PAGO", "CANCELADO"] as const;

export const paymentLinkMethodCodes = { CREDIT_CARD: 1, PIX: 2 } as const;

const ZCodeDescription = z.object({ code: z.number().int(), description: z.string() });

export const ZPaymentLink = z.object({
  linkPaymentId: z.number().int(),
  linkPaymentUuid: z.string(),
  clienteId: z.number().int(),
  nomePagador: z.string(),
  numeroInscricao: z.string(),
  isEstrangeiro: z.boolean(),
  valor: z.number(),
  numeroParcelas: z.number().int(),
  status: ZCodeDescription,
  urlPagamento: z.string(),
  descricao: z.string().nullish(),
  tokenVerificacao: z.number().int(),
  opcoesParcelamento: z.array(z.object({ numberInstallments: z.number().int(), amountInstallment: z.number() })),
  userReference: z.string().nullish(),
  comprovantePagamento: z.string().nullable(),
  identificadorTransacao: z.string().nullable(),
  metodoPagamento: ZCodeDescription.nullable(),
  dataCriacao: z.string(),
  metodosPagamentoAceitos: z.array(ZCodeDescription),
  diasExpiracao: z.number().int(),
});
export type TPaymentLink = z.infer<typeof ZPaymentLink>;

// The request spells it metodosPagamentosAceitos, the response metodosPagamentoAceitos.
export const ZCreatePaymentLinkRequest = z.object({
  nomePagador: z.string().trim().min(1),
  numeroInscricao: z.string().min(1),
  valor: z.number().positive(),
  isEstrangeiro: z.boolean().optional(),
  numeroParcelas: z.number().int().min(1).optional(),
  descricao: z.string().optional(),
  userReference: z.string().optional(),
  metodosPagamentosAceitos: z
    .array(z.union([z.literal(1), z.literal(2)]))
    .min(1)
    .optional(),
  diasExpiracao: z.number().int().min(1).optional(),
});
export type TCreatePaymentLinkRequest = z.input<typeof ZCreatePaymentLinkRequest>;

export const ZListPaymentLinksQuery = z.object({
  startDate: ZQueryDateTime,
  endDate: ZQueryDateTime,
  paymentReceipt: z.string().optional(),
  status: z.enum(paymentLinkStatusFilters).optional(),
  paymentMethod: z.union([z.literal(1), z.literal(2)]).optional(),
  registrationNumber: z.string().optional(),
  userReference: z.string().optional(),
});
export type TListPaymentLinksQuery = z.input<typeof ZListPaymentLinksQuery>;
