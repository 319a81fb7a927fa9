import { randomInt, randomUUID } from "node:crypto";
import { isCardPaymentApproved } from "../../lib/shared/card-approval";
import { onlyDigits } from "../../lib/shared/cpf-cnpj";
import { splitCents } from "../../lib/shared/installments";
import { centsToAmount } from "../../lib/shared/money";
import { processCardPayment, type TPaymentTransaction } from "../cards/payments";
import type { TCardPaymentRequest } from "../cards/schemas";
import { clientNumber } from "../cards/sequences";
import { formatDateTime, now, parseDateTime } from "../clock";
import { config } from "../config";
import { enqueueEvent } from "../events";
import { paymentError, validationError } from "../http/errors";
import { defineCollection, nextSequence, transaction } from "../store/db";
import {
  linkStatuses,
  type TCreateLinkRequest,
  type TLinkStatusCode,
  type TListLinksQuery,
  type TPaymentMethodCode,
} from "./schemas";

// Payment links (spec 4.3, states 3.3): 1 CREATED → 3 PAID (confirm), → 4 CANCELLED (cancel),
// → 2 EXPIRED (diasExpiracao days after creation, or the control API).

type TStoredLink = {
  linkPaymentId: number;
  linkPaymentUuid: string;
  clienteId: number;
  nomePagador: string;
  numeroInscricao: string;
  isEstrangeiro: boolean;
  amountCents: number;
  numeroParcelas: number;
  /** The stored status; a CREATED link past expiresAtMs reads as EXPIRED (see effectiveStatus). */
  statusCode: TLinkStatusCode;
  urlPagamento: string;
  descricao: string | null;
  tokenVerificacao: number;
  userReference: string | null;
  comprovantePagamento: string | null;
  identificadorTransacao: string | null;
  paymentMethodCode: TPaymentMethodCode | null;
  acceptedMethods: TPaymentMethodCode[];
  diasExpiracao: number;
  createdAtMs: number;
  expiresAtMs: number;
};

const links = defineCollection<TStoredLink>("payment_links");

const methodDescriptions: Record<TPaymentMethodCode, string> = { 1: "CREDIT_CARD", 2: "PIX" };
const dayMs = 24 * 60 * 60 * 1000;

function effectiveStatus(link: TStoredLink, at: number): TLinkStatusCode {
  return link.statusCode === 1 && at >= link.expiresAtMs ? 2 : link.statusCode;
}

const method = (code: TPaymentMethodCode) => ({ code, description: methodDescriptions[code] });

/** Payment link (spec 2.6). Optional fields not given at creation are null. */
function toPaymentLink(link: TStoredLink, at: number = now()) {
  const code = effectiveStatus(link, at);
  return {
    linkPaymentId: link.linkPaymentId,
    linkPaymentUuid: link.linkPaymentUuid,
    clienteId: link.clienteId,
    nomePagador: link.nomePagador,
    numeroInscricao: link.numeroInscricao,
    isEstrangeiro: link.isEstrangeiro,
    valor: centsToAmount(link.amountCents),
    numeroParcelas: link.numeroParcelas,
    status: { code, description: linkStatuses[code].description },
    urlPagamento: link.urlPagamento,
    descricao: link.descricao,
    tokenVerificacao: link.tokenVerificacao,
    // amountInstallment is the first installment: it carries the leftover cents, so n of them never fall short.
    opcoesParcelamento: Array.from({ length: link.numeroParcelas }, (_, index) => ({
      numberInstallments: index + 1,
      amountInstallment: centsToAmount(splitCents(link.amountCents, index + 1)[0] ?? 0),
    })),
    userReference: link.userReference,
    comprovantePagamento: link.comprovantePagamento,
    identificadorTransacao: link.identificadorTransacao,
    metodoPagamento: link.paymentMethodCode === null ? null : method(link.paymentMethodCode),
    dataCriacao: formatDateTime(link.createdAtMs),
    metodosPagamentoAceitos: link.acceptedMethods.map(method),
    diasExpiracao: link.diasExpiracao,
  };
}

export type TPaymentLink = ReturnType<typeof toPaymentLink>;

function findLink(clientId: string, uuid: string): TStoredLink {
  const link = links.get(clientId, uuid);
  if (!link) throw paymentError(404, undefined, "Link de pagamento não encontrado");
  return link;
}

export function createLink(clientId: string, input: TCreateLinkRequest): TPaymentLink {
  return transaction(() => {
    const at = now();
    const uuid = randomUUID();
    const link: TStoredLink = {
      linkPaymentId: nextSequence("linkPaymentId"),
      linkPaymentUuid: uuid,
      clienteId: clientNumber(clientId),
      nomePagador: input.nomePagador,
      numeroInscricao: input.numeroInscricao,
      isEstrangeiro: input.isEstrangeiro,
      amountCents: input.amountCents,
      numeroParcelas: input.numeroParcelas,
      statusCode: 1,
      urlPagamento: `${config().linkBaseUrl}${uuid}`,
      descricao: input.descricao ?? null,
      tokenVerificacao: randomInt(100_000, 1_000_000),
      userReference: input.userReference ?? null,
      comprovantePagamento: null,
      identificadorTransacao: null,
      paymentMethodCode: null,
      acceptedMethods: input.acceptedMethods,
      diasExpiracao: input.diasExpiracao,
      createdAtMs: at,
      expiresAtMs: at + input.diasExpiracao * dayMs,
    };
    links.insert(clientId, uuid, at, link);
    return toPaymentLink(link, at);
  });
}

export function getLink(clientId: string, uuid: string): TPaymentLink {
  return toPaymentLink(findLink(clientId, uuid));
}

const integerText = /^-?\d+$/;

/**
 * GET /check/{uuid}/{code}: 400 unless the code is the link's tokenVerificacao. The path carries a string and
 * tokenVerificacao is an integer of any size (2.6), so the code is compared as an integer ("0042" is 42).
 */
export function verifyLink(clientId: string, uuid: string, verificationCode: string): TPaymentLink {
  const link = findLink(clientId, uuid);
  if (!integerText.test(verificationCode)) {
    throw validationError(
      [{ campo: "verificationCode", erro: "deve ser um número inteiro" }],
      "Código de verificação inválido",
    );
  }
  if (BigInt(verificationCode) !== BigInt(link.tokenVerificacao)) {
    throw validationError(
      [{ campo: "verificationCode", erro: "código de verificação inválido" }],
      "Código de verificação inválido",
    );
  }
  return toPaymentLink(link);
}

/** Links created in [startDate, endDate] (Brasília time when no zone), oldest first, then the optional filters. */
export function listLinks(clientId: string, query: TListLinksQuery): TPaymentLink[] {
  const fromMs = parseDateTime(query.startDate);
  const toMs = parseDateTime(query.endDate);
  const invalid = [
    ...(Number.isNaN(fromMs) ? [{ campo: "startDate", erro: "data-hora inválida" }] : []),
    ...(Number.isNaN(toMs) ? [{ campo: "endDate", erro: "data-hora inválida" }] : []),
  ];
  if (invalid.length > 0) throw validationError(invalid);
  if (fromMs > toMs) throw validationError([{ campo: "endDate", erro: "anterior a startDate" }]);
  const at = now();
  const registration = query.registrationNumber;
  return links
    .list(clientId, { fromMs, toMs })
    .filter(
      (link) =>
        (query.status === undefined || effectiveStatus(link, at) === query.status) &&
        (query.paymentReceipt === undefined || link.comprovantePagamento === query.paymentReceipt) &&
        // paymentMethod filters on the method actually used (metodoPagamento), so it matches paid links only.
        (query.paymentMethod === undefined || link.paymentMethodCode === query.paymentMethod) &&
        (query.userReference === undefined || link.userReference === query.userReference) &&
        (registration === undefined ||
          link.numeroInscricao === registration ||
          (!link.isEstrangeiro && link.numeroInscricao === onlyDigits(registration))),
    )
    .map((link) => toPaymentLink(link, at));
}

function conflictUnless(link: TStoredLink, at: number, allowed: readonly TLinkStatusCode[], action: string): void {
  const code = effectiveStatus(link, at);
  if (!allowed.includes(code)) {
    throw paymentError(409, undefined, `Link ${linkStatuses[code].description}: não é possível ${action}`);
  }
}

export type TConfirmOutcome = { kind: "paid"; link: TPaymentLink } | { kind: "refused"; payment: TPaymentTransaction };

/**
 * PUT /confirm-payment/{uuid}: authorizes the card for the link's amount. Authorized → PAID, event
 * link_payment.paid with the link as data. A refusal leaves the link CREATED (the payer may retry) and
 * is reported by the route; the refused payment stays readable under /api/v1/payments.
 */
export function confirmLinkPayment(clientId: string, uuid: string, request: TCardPaymentRequest): TConfirmOutcome {
  return transaction(() => {
    const link = findLink(clientId, uuid);
    const at = now();
    conflictUnless(link, at, [1], "confirmar o pagamento");
    const mismatches = [
      ...(link.acceptedMethods.includes(1) ? [] : [{ campo: "numeroCartao", erro: "o link não aceita cartão" }]),
      ...(request.amountCents === link.amountCents
        ? []
        : [{ campo: "valor", erro: "deve ser igual ao valor do link" }]),
      ...(request.numeroParcelas <= link.numeroParcelas
        ? []
        : [{ campo: "numeroParcelas", erro: `máximo ${link.numeroParcelas} para este link` }]),
    ];
    if (mismatches.length > 0) throw validationError(mismatches);
    const payment = processCardPayment(clientId, request, { tokenize: false });
    if (!isCardPaymentApproved(payment)) return { kind: "refused", payment };
    const paid: TStoredLink = {
      ...link,
      statusCode: 3,
      comprovantePagamento: payment.identicadorPagamentoAdquirente,
      identificadorTransacao: payment.id,
      paymentMethodCode: 1,
    };
    links.update(clientId, uuid, paid);
    const view = toPaymentLink(paid, at);
    enqueueEvent(clientId, "link_payment.paid", view);
    return { kind: "paid", link: view };
  });
}

/** PUT /{uuid}/cancel: a CREATED or EXPIRED link becomes CANCELLED (4); PAID or CANCELLED is 409 (spec 3.3). */
export function cancelLink(clientId: string, uuid: string): TPaymentLink {
  return transaction(() => {
    const link = findLink(clientId, uuid);
    const at = now();
    conflictUnless(link, at, [1, 2], "cancelar");
    const cancelled: TStoredLink = { ...link, statusCode: 4 };
    links.update(clientId, uuid, cancelled);
    return toPaymentLink(cancelled, at);
  });
}

/**
 * Control API: give a link another tokenVerificacao, so integrators can try codes of any length the spec's
 * integer allows (the sandbox issues six digits).
 */
export function setLinkVerificationCode(clientId: string, uuid: string, tokenVerificacao: number): TPaymentLink {
  return transaction(() => {
    const link = findLink(clientId, uuid);
    const updated: TStoredLink = { ...link, tokenVerificacao };
    links.update(clientId, uuid, updated);
    return toPaymentLink(updated);
  });
}

/** Control API: expire a CREATED link now (409 otherwise). */
export function expireLink(clientId: string, uuid: string): TPaymentLink {
  return transaction(() => {
    const link = findLink(clientId, uuid);
    const at = now();
    conflictUnless(link, at, [1], "expirar");
    const expired: TStoredLink = { ...link, statusCode: 2, expiresAtMs: at };
    links.update(clientId, uuid, expired);
    return toPaymentLink(expired, at);
  });
}
