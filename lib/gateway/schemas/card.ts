import { z } from "zod";
import { ZPageQuery } from "./common";

export const cardStatuses = ["ATV", "INA"] as const;

const ZText = z.string().nullish();

// `id` is not in 2.5; the sandbox adds it for "read card by id".
export const ZCard = z.object({
  id: ZText,
  statusCard: z.string(),
  bandeiraCartao: z.string(),
  token: z.string(),
  bin: z.string(),
  suffix: z.string(),
  dataExpiracao: z.string(),
  customerId: ZText,
  dataCriacao: ZText,
  dataModificacao: ZText,
});
export type TCard = z.infer<typeof ZCard>;

// The paging numbers are strings here.
export const ZCardLookup = z.object({
  codigoResposta: z.string(),
  mensagemResposta: ZText,
  cartoes: z.array(ZCard),
  paginaAtual: ZText,
  totalPaginas: ZText,
  quantidade: ZText,
});

// Lengths per section 8.
export const ZCardResult = z.object({
  id: ZText,
  code: z.string().max(4),
  message: z.string().max(500).nullish(),
  token: z.string(),
  suffix: z.string(),
  bin: z.string().max(8),
  statusTransaction: z.string(),
  nsua: z.string().max(15).nullish(),
  nita: z.string().max(64).nullish(),
  merchantUsn: z.string().max(12).nullish(),
  clientId: ZText,
  bandeiraCartao: z.string(),
});
export type TCardResult = z.infer<typeof ZCardResult>;

export const ZCardStatusResult = z.object({
  codigo: z.string(),
  mensagem: ZText,
  token: z.string(),
  suffix: ZText,
  bin: ZText,
  statusCartao: z.string(),
  nsua: ZText,
  nita: ZText,
  clientId: ZText,
  bandeiraCartao: ZText,
});
export type TCardStatusResult = z.infer<typeof ZCardStatusResult>;

export const ZCreateCardRequest = z.object({
  dataExpiracao: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/, "MM/YY"),
  numeroCartao: z.string().regex(/^\d{12,19}$/),
  bandeiraCartao: z.string().regex(/^\d+$/),
  walletTransactionId: z.string().optional(),
  merchantUsn: z.string().max(12).optional(),
  clientId: z.string().optional(),
});
export type TCreateCardRequest = z.input<typeof ZCreateCardRequest>;

export const ZListCardsQuery = ZPageQuery;
export type TListCardsQuery = z.input<typeof ZListCardsQuery>;
