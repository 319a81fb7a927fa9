import { createHash, randomUUID } from "node:crypto";
import { cardBin, maskCardNumber } from "../../lib/shared/card";
import { authorizedCardPaymentMessage } from "../../lib/shared/card-approval";
import { centsToAmount, centsToAmountString } from "../../lib/shared/money";
import { now } from "../clock";
import { paymentError, validationError } from "../http/errors";
import type { TPage, TPaging } from "../http/paging";
import { toPage } from "../http/paging";
import { defineCollection, nextSequence, transaction } from "../store/db";
import { planInstallments } from "./installments";
import { debitInstallmentType, type TCardPaymentRequest } from "./schemas";
import { randomDigits } from "./sequences";
import { decideAuthorization, type TAuthorizerDecision, type TCardFacts } from "./test-cards";
import { cardBrandName, findCardByToken, tokenizeCard } from "./tokens";

// Card payments (spec 4.1, states 3.1). Authorized payments are CON; refused ones are NEG (the spec shows only
// CON and CAN, so NEG is the sandbox's choice); only CON can be cancelled, into CAN.

type TPaymentStatus = "CON" | "NEG" | "CAN";

type TInstallment = {
  id: string;
  transacaoCartaoId: string;
  numeroParcela: number;
  valorParcela: number;
  dataVencimento: string;
};

/** Payment transaction (spec 2.2). Fields that do not apply are null; `recorrenciaId` is omitted (no recurrences). */
export type TPaymentTransaction = {
  id: string;
  codigo: string;
  mensagem: string;
  codigoAutorizacao: string;
  mensagemAutorizador: string;
  status: TPaymentStatus;
  identicadorPagamentoAdquirente: string;
  identificadorPagamento: string;
  cupomCliente: string;
  cupomEstabelecimento: string;
  merchantAdviceCode: string | null;
  bandeiraCartao: string;
  codigoAdquirente: string;
  nomeAdquirente: string;
  dataAutorizacao: string;
  numeroAutorizacao: string | null;
  merchantUsn: string;
  ecommerceGatewayUsn: string;
  gatewayUsn: string;
  hostUsn: string;
  valor: number;
  tipoPagamento: "C" | "D";
  emissor: string;
  authorizerMerchantId: string;
  terminalId: string;
  dataPagamento: string | null;
  parcelas: TInstallment[];
  /** Not in spec 2.2: present when the payment used or created a card token (our answer to "not shown"). */
  token?: string;
};

// The last four digits are kept beside the view only to print them on the cancellation receipts.
type TStoredPayment = { view: TPaymentTransaction; amountCents: number; createdAtMs: number; cardSuffix: string };

const payments = defineCollection<TStoredPayment>("card_payments");

const acquirer = { codigoAdquirente: "999", nomeAdquirente: "SANDBOX ADQUIRENTE", terminalId: "SBX00001" } as const;
const brasiliaOffsetMs = -3 * 60 * 60 * 1000;

/** The card-area date format DD/MM/YYYY'T'HH:mm, in Brasília time. */
function formatCardDateTime(ms: number): string {
  const iso = new Date(ms + brasiliaOffsetMs).toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}T${iso.slice(11, 16)}`;
}

/** A stable 10-digit affiliation code per client certificate. */
function authorizerMerchantId(clientId: string): string {
  const hash = createHash("sha256").update(clientId).digest();
  return String(hash.readUInt32BE(0) % 10_000_000_000).padStart(10, "0");
}

type TReceipt = {
  via: "CLIENTE" | "ESTABELECIMENTO";
  brand: string;
  suffix: string;
  amountCents: number;
  at: number;
  authorization: string | null;
  label: string;
};

function receipt({ via, brand, suffix, amountCents, at, authorization, label }: TReceipt): string {
  return [
    acquirer.nomeAdquirente,
    `VIA ${via}`,
    `${brand} ${label}`,
    `************${suffix}`,
    `VALOR: R$ ${centsToAmountString(amountCents).replace(".", ",")}`,
    authorization ? `AUT: ${authorization}` : "TRANSACAO NEGADA",
    formatCardDateTime(at),
  ].join("\n");
}

const installmentLabels: Record<TCardPaymentRequest["tipoParcelamento"], string> = {
  "3": "CREDITO A VISTA",
  "4": "CREDITO PARCELADO LOJA",
  "6": "CREDITO PARCELADO EMISSOR",
  "7": "DEBITO",
};

/** Receipt line of the payment type; with more than one installment it shows the count ("CREDITO 3X"). */
function installmentLabel({ tipoParcelamento, numeroParcelas }: TCardPaymentRequest): string {
  if (numeroParcelas === 1) return installmentLabels[tipoParcelamento];
  // "A VISTA" would contradict the count: type 3 in installments prints as plain credit.
  const typeLabel = tipoParcelamento === "3" ? "CREDITO" : installmentLabels[tipoParcelamento];
  return `${typeLabel} ${numeroParcelas}X`;
}

type TResolvedCard = TCardFacts & { token?: string };

/** The card the payment uses: the number's BIN and suffix, or the stored facts of an active token of this client. */
function resolveCard(clientId: string, request: TCardPaymentRequest): TResolvedCard {
  if (request.numeroCartao !== undefined) {
    return {
      bin: cardBin(request.numeroCartao),
      suffix: maskCardNumber(request.numeroCartao),
      dataExpiracao: request.dataExpiracao,
    };
  }
  const card = findCardByToken(clientId, request.token ?? "");
  if (!card) throw validationError([{ campo: "token", erro: "token não encontrado" }]);
  if (card.statusCard !== "ATV") throw validationError([{ campo: "token", erro: "cartão desabilitado" }]);
  if (card.bandeiraCartao !== request.bandeiraCartao) {
    throw validationError([{ campo: "bandeiraCartao", erro: "não corresponde à bandeira do cartão do token" }]);
  }
  return {
    bin: card.bin,
    suffix: card.suffix,
    dataExpiracao: request.dataExpiracao ?? card.dataExpiracao ?? undefined,
    token: card.token,
  };
}

function buildTransaction(
  clientId: string,
  request: TCardPaymentRequest,
  card: TResolvedCard,
  decision: Exclude<TAuthorizerDecision, { kind: "error" }>,
  at: number,
): TPaymentTransaction {
  const id = randomUUID();
  const isAuthorized = decision.kind === "authorized";
  const numeroAutorizacao = isAuthorized ? randomDigits(6) : null;
  const brand = cardBrandName(request);
  const receiptFacts = {
    brand,
    suffix: card.suffix,
    amountCents: request.amountCents,
    at,
    authorization: numeroAutorizacao,
    label: installmentLabel(request),
  };
  return {
    id,
    codigo: isAuthorized ? "0" : decision.codigo,
    mensagem: isAuthorized ? (decision.mensagem ?? authorizedCardPaymentMessage) : decision.mensagem,
    codigoAutorizacao: isAuthorized ? "00" : decision.codigo,
    mensagemAutorizador: isAuthorized ? "APROVADA" : decision.mensagemAutorizador,
    status: isAuthorized ? "CON" : "NEG",
    identicadorPagamentoAdquirente: randomDigits(16),
    identificadorPagamento: request.identificacaoPagamento,
    cupomCliente: receipt({ via: "CLIENTE", ...receiptFacts }),
    cupomEstabelecimento: receipt({ via: "ESTABELECIMENTO", ...receiptFacts }),
    merchantAdviceCode: isAuthorized ? null : decision.merchantAdviceCode,
    bandeiraCartao: request.bandeiraCartao,
    codigoAdquirente: acquirer.codigoAdquirente,
    nomeAdquirente: acquirer.nomeAdquirente,
    dataAutorizacao: formatCardDateTime(at),
    numeroAutorizacao,
    merchantUsn: String(nextSequence(`merchantUsn:${clientId}`)),
    ecommerceGatewayUsn: String(nextSequence("ecommerceGatewayUsn")),
    gatewayUsn: String(nextSequence("gatewayUsn")),
    hostUsn: randomDigits(9),
    valor: centsToAmount(request.amountCents),
    tipoPagamento: request.tipoParcelamento === debitInstallmentType ? "D" : "C",
    emissor: brand,
    authorizerMerchantId: authorizerMerchantId(clientId),
    terminalId: acquirer.terminalId,
    dataPagamento: isAuthorized ? formatCardDateTime(at) : null,
    // Installments exist only for an authorized payment; they add up exactly to valor (see installments.ts).
    // Every type gets numeroParcelas of them, debit (7) included: the spec ties no count to a type.
    parcelas: isAuthorized
      ? planInstallments(request.amountCents, request.numeroParcelas, at).map((plan) => ({
          id: randomUUID(),
          transacaoCartaoId: id,
          numeroParcela: plan.numeroParcela,
          valorParcela: centsToAmount(plan.valorParcelaCents),
          dataVencimento: plan.dataVencimento,
        }))
      : [],
    ...(card.token === undefined ? {} : { token: card.token }),
  };
}

/**
 * Authorizes and stores a card payment (create payment, tokenize while paying, confirm link payment).
 * Refusals are stored and returned like the gateway does (codigo other than "0"); a test card that
 * simulates an authorizer failure answers 500 and stores nothing. Call inside or outside a transaction.
 */
export function processCardPayment(
  clientId: string,
  request: TCardPaymentRequest,
  options: { tokenize: boolean },
): TPaymentTransaction {
  // Tokenize takes the 2.1 body as create payment does: paid by token, the answer carries that token; a card
  // without dataExpiracao is tokenized without one (2.1 makes the expiry optional).
  return transaction(() => {
    const resolved = resolveCard(clientId, request);
    const at = now();
    const decision = decideAuthorization(resolved, at);
    if (decision.kind === "error")
      throw paymentError(500, "AUTHORIZER_ERROR", "Falha de comunicação com o autorizador");
    const { numeroCartao, dataExpiracao } = request;
    const card =
      options.tokenize && decision.kind === "authorized" && numeroCartao !== undefined
        ? {
            ...resolved,
            token: tokenizeCard(clientId, {
              numeroCartao,
              dataExpiracao: dataExpiracao ?? null,
              bandeiraCartao: request.bandeiraCartao,
            }).token,
          }
        : resolved;
    const view = buildTransaction(clientId, request, card, decision, at);
    payments.insert(clientId, view.id, at, {
      view,
      amountCents: request.amountCents,
      createdAtMs: at,
      cardSuffix: card.suffix,
    });
    return view;
  });
}

export function getPayment(clientId: string, id: string): TPaymentTransaction {
  const stored = payments.get(clientId, id);
  if (!stored) throw paymentError(404, undefined, "Pagamento não encontrado");
  return stored.view;
}

export const paymentSortFields = [
  "valor",
  "status",
  "identificadorPagamento",
  "dataAutorizacao",
  "dataPagamento",
  "bandeiraCartao",
  "numeroParcelas",
] as const;

/** Oldest first (like every sandbox list) unless `sort` says otherwise; dates sort by their instant, not their DD/MM text. */
export function listPayments(clientId: string, paging: TPaging): TPage<TPaymentTransaction> {
  const page = toPage(payments.list(clientId), paging, {
    valor: (stored) => stored.amountCents,
    status: (stored) => stored.view.status,
    identificadorPagamento: (stored) => stored.view.identificadorPagamento,
    dataAutorizacao: (stored) => stored.createdAtMs,
    dataPagamento: (stored) => (stored.view.dataPagamento === null ? null : stored.createdAtMs),
    bandeiraCartao: (stored) => stored.view.bandeiraCartao,
    numeroParcelas: (stored) => stored.view.parcelas.length,
  });
  return { ...page, content: page.content.map((stored) => stored.view) };
}

/** Payment cancellation result (spec 2.4). `valor` is cents as a string there, unlike every other amount. */
export type TCancellationResult = {
  codigo: string;
  mensagem: string;
  status: "CAN";
  identicadorPagamentoAdquirente: string;
  identificadorPagamento: string;
  cupomCliente: string;
  cupomEstabelecimento: string;
  bandeiraCartao: string;
  codigoAdquirente: string;
  nomeAdquirente: string;
  dataAutorizacao: string;
  numeroAutorizacao: string;
  merchantUsn: string;
  ecommerceGatewayUsn: string;
  hostUsn: string;
  valor: string;
  tipoPagamento: "C" | "D";
  ecommerceGatewayDate: string;
  isHostCancel: string;
};

/** PUT /api/v1/payments/{id}/cancel: CON → CAN; anything else (refused, already cancelled) is 409. */
export function cancelPayment(clientId: string, id: string): TCancellationResult {
  return transaction(() => {
    const stored = payments.get(clientId, id);
    if (!stored) throw paymentError(404, undefined, "Pagamento não encontrado");
    if (stored.view.status !== "CON") {
      throw paymentError(409, undefined, `Pagamento não pode ser cancelado no status ${stored.view.status}`);
    }
    const at = now();
    payments.update(clientId, id, { ...stored, view: { ...stored.view, status: "CAN" } });
    const numeroAutorizacao = randomDigits(6);
    const receiptFacts = {
      brand: stored.view.emissor,
      suffix: stored.cardSuffix,
      amountCents: stored.amountCents,
      at,
      authorization: numeroAutorizacao,
      label: "CANCELAMENTO",
    };
    // codigoAutorizacao/mensagemAutorizador ("signature authentication only") and tid ("acquirers outside
    // the gateway only") are omitted: the sandbox uses mTLS and is its own acquirer.
    return {
      codigo: "0",
      mensagem: "Cancelamento efetuado",
      status: "CAN",
      identicadorPagamentoAdquirente: randomDigits(16),
      identificadorPagamento: stored.view.identificadorPagamento,
      cupomCliente: receipt({ via: "CLIENTE", ...receiptFacts }),
      cupomEstabelecimento: receipt({ via: "ESTABELECIMENTO", ...receiptFacts }),
      bandeiraCartao: stored.view.bandeiraCartao,
      codigoAdquirente: acquirer.codigoAdquirente,
      nomeAdquirente: acquirer.nomeAdquirente,
      dataAutorizacao: formatCardDateTime(at),
      numeroAutorizacao,
      merchantUsn: stored.view.merchantUsn,
      ecommerceGatewayUsn: String(nextSequence("ecommerceGatewayUsn")),
      hostUsn: randomDigits(9),
      valor: String(stored.amountCents),
      tipoPagamento: stored.view.tipoPagamento,
      ecommerceGatewayDate: formatCardDateTime(at),
      isHostCancel: "false",
    };
  });
}
