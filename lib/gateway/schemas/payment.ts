import { z } from "zod";
import { ZPageQuery } from "./common";

// Card payment schemas (2.1 to 2.4). Card numbers and security codes pass through the request
// schema only: nothing here logs or stores them.

// 2.1 tipoParcelamento: allowed values per the spec; meanings are the sandbox's (sandbox/README.md).
export const installmentTypes = ["3", "4", "6", "7"] as const;

// 2.1 card payment request (create payment, tokenize payment, confirm link payment).
export const ZCardPaymentRequest = z
  .object({
    identificacaoPagamento: z.string().min(1),
    numeroParcelas: z.number().int().min(1),
    tipoParcelamento: z.enum(installmentTypes),
    bandeiraCartao: z.string().regex(/^\d+$/, "numeric brand code"),
    valor: z.number().positive(),
    dataExpiracao: z
      .string()
      .regex(/^(0[1-9]|1[0-2])\/\d{2}$/, "MM/YY")
      .optional(),
    codigoSeguranca: z
      .string()
      .regex(/^\d{3,4}$/)
      .optional(),
    numeroCartao: z
      .string()
      .regex(/^\d{12,19}$/)
      .optional(),
    token: z.string().min(1).optional(),
  })
  .refine((body) => (body.numeroCartao === undefined) !== (body.token === undefined), {
    message: "send either numeroCartao or token",
    path: ["numeroCartao"],
  });
export type TCardPaymentRequest = z.input<typeof ZCardPaymentRequest>;

// 3.1 transaction status: only CON and CAN are shown in the spec (the sandbox adds NEG for a
// refusal); any string parses.
export const transactionStatuses = ["CON", "CAN", "NEG"] as const;

// 2.2 tipoPagamento: B boleto, C credit, D debit, P private label, T transfer, G gift, O other, W boleto NR.
export const paymentTypes = ["B", "C", "D", "P", "T", "G", "O", "W"] as const;

const ZText = z.string().nullish();

// 2.3 installment.
export const ZInstallment = z.object({
  id: z.string(),
  transacaoCartaoId: z.string(),
  numeroParcela: z.number().int(),
  valorParcela: z.number(),
  dataVencimento: z.string(),
});
export type TInstallment = z.infer<typeof ZInstallment>;

// 2.2 payment transaction. Identifiers, codes, status and amount are required; the descriptive
// fields are lenient (upstream leaves some out: recorrenciaId, dataPagamento of a refusal).
export const ZPaymentTransaction = z.object({
  id: z.string(),
  codigo: z.string(),
  mensagem: z.string(),
  codigoAutorizacao: ZText,
  mensagemAutorizador: ZText,
  status: z.string(),
  // The spec's spelling ("identicador") is kept.
  identicadorPagamentoAdquirente: ZText,
  identificadorPagamento: ZText,
  cupomCliente: ZText,
  cupomEstabelecimento: ZText,
  merchantAdviceCode: ZText,
  bandeiraCartao: ZText,
  codigoAdquirente: ZText,
  nomeAdquirente: ZText,
  dataAutorizacao: ZText,
  numeroAutorizacao: ZText,
  merchantUsn: ZText,
  ecommerceGatewayUsn: ZText,
  gatewayUsn: ZText,
  hostUsn: ZText,
  valor: z.number(),
  tipoPagamento: ZText,
  emissor: ZText,
  authorizerMerchantId: ZText,
  terminalId: ZText,
  dataPagamento: ZText,
  recorrenciaId: ZText,
  parcelas: z.array(ZInstallment).nullish(),
  // Not in 2.2: the sandbox returns the card token on tokenize-while-paying and token payments.
  token: ZText,
});
export type TPaymentTransaction = z.infer<typeof ZPaymentTransaction>;

// 2.4 cancellation result. `valor` is the cancelled amount in CENTS as a string, unlike every
// other amount of the API.
export const ZPaymentCancellation = z.object({
  codigo: z.string(),
  mensagem: z.string(),
  codigoAutorizacao: ZText,
  mensagemAutorizador: ZText,
  status: z.string(),
  identicadorPagamentoAdquirente: ZText,
  identificadorPagamento: ZText,
  cupomCliente: ZText,
  cupomEstabelecimento: ZText,
  bandeiraCartao: ZText,
  codigoAdquirente: ZText,
  nomeAdquirente: ZText,
  dataAutorizacao: ZText,
  numeroAutorizacao: ZText,
  merchantUsn: ZText,
  ecommerceGatewayUsn: ZText,
  hostUsn: ZText,
  tid: ZText,
  valor: z.string().regex(/^\d+$/, "cents as a string"),
  tipoPagamento: ZText,
  ecommerceGatewayDate: ZText,
  isHostCancel: ZText,
});
export type TPaymentCancellation = z.infer<typeof ZPaymentCancellation>;

// 4.1 list payments query.
export const ZListPaymentsQuery = ZPageQuery;
export type TListPaymentsQuery = z.input<typeof ZListPaymentsQuery>;
