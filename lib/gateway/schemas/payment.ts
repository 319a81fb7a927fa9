import { z } from "zod";
import { ZPageQuery } from "./common";

// 2.1 tipoParcelamento: allowed values per the spec; meanings are the sandbox's (sandbox/README.md).
const installmentTypes = ["3", "4", "6", "7"] as const;

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

const ZText = z.string().nullish();

const ZInstallment = z.object({
  id: z.string(),
  transacaoCartaoId: z.string(),
  numeroParcela: z.number().int(),
  valorParcela: z.number(),
  dataVencimento: z.string(),
});

// Descriptive fields are lenient: upstream leaves some out (recorrenciaId, a refusal's dataPagamento).
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

// 2.4: `valor` is the cancelled amount in CENTS as a string, unlike every other amount of the API.
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

export const ZListPaymentsQuery = ZPageQuery;
export type TListPaymentsQuery = z.input<typeof ZListPaymentsQuery>;
