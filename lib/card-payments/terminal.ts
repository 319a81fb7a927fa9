import "server-only";
import { randomBytes } from "node:crypto";
import { auditFieldsOf, recordAudit, type TChangeContext, type TRecordAuditInput } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { AppError, type TMessageKey } from "@/lib/errors";
import {
  describeGatewayFailure,
  GatewayHttpError,
  GatewayRefusedError,
  isCertainlyNotApplied,
  isGatewayError,
  toAppError,
} from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payments";
import { type TCardPaymentRequest, type TPaymentTransaction, ZPaymentTransaction } from "@/lib/gateway/schemas/payment";
import { findClaimedResultIds, runIdempotent, type TIdempotentAttempt } from "@/lib/idempotency/idempotency";
import { log } from "@/lib/log";
import { findCardTokenRow, findCardTokens, syncCardToken } from "@/lib/saved-cards/cards";
import { ZCardTokenFilters } from "@/lib/saved-cards/schemas";
import type { TCardTokenRow } from "@/lib/saved-cards/types";
import { cardBin, detectCardBrand, maskCardNumber } from "@/lib/shared/card";
import { amountToCents, centsToAmount } from "@/lib/shared/money";
import { newCardPaymentRows, type TCardPaymentKnowledge, upsertCardPaymentFromGateway } from "./mirror";
import {
  cardRetryAdviceRow,
  recordCardRetryAdvice,
  retryBlockOf,
  retryBlocksJsonSql,
  retryBlocksValues,
  type TCardRefusal,
  type TRetryBlock,
  terminalOrderKey,
} from "./retry-advice";
import type { TTerminalPayment } from "./schemas";
import { installmentCountFor } from "./terminal-plan";
import { recordCreatedCardPayment } from "./terminal-record";

// Card number and code go upstream and nowhere else (fingerprint, mirror, audit, logs, errors): docs/virtual-terminal.md.

export const terminalPaymentScope = "card_payment";
// The recovery reads the newest payments upstream: an earlier attempt is at most a lease old.
const recoveryPageSize = 100;
const savedCardsShown = 50;

export type TTerminalResult = {
  paymentId: string;
  isApproved: boolean;
  merchantAdviceCode: string | null;
  isReplay: boolean;
  cardToken: string | null;
};

type TResolvedCard = {
  bandeiraCartao: string;
  bin: string;
  lastFour: string;
  expiry: string | null;
  token: string | null;
  body: Pick<TCardPaymentRequest, "numeroCartao" | "dataExpiracao" | "codigoSeguranca" | "token">;
};

export function newTerminalOrderId(now: Date = new Date()): string {
  return `VT-${now.getTime().toString(36).toUpperCase()}-${randomBytes(3).toString("hex").toUpperCase()}`;
}

const tokenError = (key: "tokenUnknown" | "tokenInactive") =>
  new AppError("VALIDATION_FAILED", `cardPayments.terminal.errors.${key}`, { fieldErrors: { "card.token": key } });

export async function findTerminalSavedCard(token: string): Promise<TCardTokenRow | null> {
  return findCardTokenRow(token);
}

export async function findTerminalSavedCards(): Promise<TCardTokenRow[]> {
  const page = await findCardTokens(
    ZCardTokenFilters.parse({ status: "ATV", sort: "createdAt", order: "desc" }),
    savedCardsShown,
  );
  return page.rows.filter((card) => !card.isExpired);
}

async function resolveCard(card: TTerminalPayment["card"], createdById: string | null): Promise<TResolvedCard> {
  if (card.kind === "typed") {
    // The schema refused numbers of unknown brands.
    const brand = detectCardBrand(card.number);
    if (!brand)
      throw new AppError("VALIDATION_FAILED", "cardPayments.terminal.errors.unknownBrand", {
        fieldErrors: { "card.number": "unknownBrand" },
      });
    return {
      bandeiraCartao: brand.bandeiraCartao,
      bin: cardBin(card.number),
      lastFour: maskCardNumber(card.number),
      expiry: card.expiry,
      token: null,
      body: { numeroCartao: card.number, dataExpiracao: card.expiry, codigoSeguranca: card.securityCode },
    };
  }
  // The mirror may be behind (a token disabled or enabled since): one that is not shown active is read upstream.
  let saved = await findTerminalSavedCard(card.token);
  if (saved?.status !== "ATV") saved = (await syncCardToken(card.token, { createdById })) ?? saved;
  if (!saved) throw tokenError("tokenUnknown");
  if (saved.status !== "ATV") throw tokenError("tokenInactive");
  return {
    bandeiraCartao: saved.brandCode,
    bin: saved.bin,
    lastFour: saved.lastFour,
    expiry: saved.expiry,
    token: saved.token,
    // dataExpiracao defaults to the token's upstream.
    body: { token: saved.token },
  };
}

// A refusal is a 201 with the refused transaction: it is the payment's outcome, mirrored like an approval.
async function sendPayment(body: TCardPaymentRequest, isTokenize: boolean): Promise<TPaymentTransaction> {
  try {
    return isTokenize ? await gateway.tokenizePayment(body) : await gateway.createPayment(body);
  } catch (error) {
    if (error instanceof GatewayRefusedError) {
      const refused = ZPaymentTransaction.safeParse(error.response);
      if (refused.success) return refused.data;
    }
    throw error;
  }
}

export const retryBlockErrorKeys = {
  doNotRetry: "cardPayments.terminal.errors.adviceDoNotRetry",
  retryLater: "cardPayments.terminal.errors.adviceRetryLater",
  updateCard: "cardPayments.terminal.errors.adviceUpdateCard",
} as const satisfies Record<TRetryBlock["kind"], TMessageKey>;

const retryBlockKeys = new Set<TMessageKey>(Object.values(retryBlockErrorKeys));
const isRetryBlockError = (error: unknown) => error instanceof AppError && retryBlockKeys.has(error.messageKey);

const retryCardOf = (card: TResolvedCard) => ({ bin: card.bin, lastFour: card.lastFour, expiry: card.expiry });

function refuseRetryAgainstAdvice(block: TRetryBlock | null): void {
  if (!block) return;
  throw new AppError("UNPROCESSABLE", retryBlockErrorKeys[block.kind], {
    params: block.kind === "retryLater" ? { until: block.retryAfter.getTime() } : undefined,
    fieldErrors: block.kind === "retryLater" ? { retryAfter: block.retryAfter.toISOString() } : undefined,
  });
}

// Upstream keeps no key of ours: an earlier attempt's payment is found by order id, amount and brand among the newest.
async function findPaymentOfEarlierAttempt(body: TCardPaymentRequest): Promise<TPaymentTransaction | null> {
  const page = await gateway.listPayments({ page: 0, size: recoveryPageSize, sort: "dataAutorizacao,desc" });
  const amountCents = amountToCents(body.valor);
  const candidates = page.content.filter(
    (item) =>
      item.identificadorPagamento === body.identificacaoPagamento &&
      amountToCents(item.valor) === amountCents &&
      item.bandeiraCartao === body.bandeiraCartao,
  );
  const taken = await findClaimedResultIds(
    terminalPaymentScope,
    candidates.map((item) => item.id),
  );
  const found = candidates.find((item) => !taken.has(item.id));
  return found ? gateway.getPayment(found.id) : null;
}

const upstreamFields: Record<string, { field: (isSaved: boolean) => string; key: string }> = {
  numeroCartao: { field: () => "card.number", key: "cardRejected" },
  dataExpiracao: { field: (isSaved) => (isSaved ? "card.token" : "card.expiry"), key: "expiryRejected" },
  codigoSeguranca: { field: () => "card.securityCode", key: "securityCodeRejected" },
  token: { field: () => "card.token", key: "tokenRejected" },
  bandeiraCartao: { field: (isSaved) => (isSaved ? "card.token" : "card.number"), key: "brandRejected" },
  numeroParcelas: { field: () => "installmentCount", key: "installmentsRejected" },
  tipoParcelamento: { field: () => "installmentType", key: "installmentsRejected" },
  valor: { field: () => "amountCents", key: "amountRejected" },
  identificacaoPagamento: { field: () => "orderId", key: "orderIdRejected" },
};

// Message keys, never upstream text: a 400's details could in principle quote what was sent.
function toTerminalError(error: unknown, isSaved: boolean): AppError {
  if (error instanceof GatewayHttpError && error.status === 400) {
    const fieldErrors: Record<string, string> = {};
    for (const { campo } of error.fieldErrors) {
      const known = upstreamFields[campo];
      if (known) fieldErrors[known.field(isSaved)] ??= known.key;
    }
    return new AppError("VALIDATION_FAILED", "cardPayments.terminal.errors.gatewayRejected", {
      cause: error,
      fieldErrors: Object.keys(fieldErrors).length > 0 ? fieldErrors : undefined,
    });
  }
  const appError = toAppError(error);
  if (appError.code === "CONFLICT")
    return new AppError(appError.code, "cardPayments.terminal.errors.requestConflict", { cause: error });
  if (appError.code === "UPSTREAM_TIMEOUT")
    return new AppError(appError.code, "cardPayments.terminal.errors.gatewayTimeout", { cause: error });
  if (appError.code === "UPSTREAM_UNAVAILABLE")
    return new AppError(appError.code, "cardPayments.terminal.errors.gatewayUnavailable", { cause: error });
  return appError;
}

type TRecorded = Pick<TTerminalResult, "isApproved" | "merchantAdviceCode" | "cardToken">;

async function recordPayment(
  transaction: TPaymentTransaction,
  input: TTerminalPayment,
  card: TResolvedCard,
  attempt: TIdempotentAttempt,
  context: TChangeContext,
): Promise<TRecorded> {
  const now = new Date();
  const installmentCount = installmentCountFor(input.installmentType, input.installmentCount);
  const knowledge: TCardPaymentKnowledge = {
    origin: "TERMINAL",
    cardBin: card.bin,
    cardLastFour: card.lastFour,
    cardToken: transaction.token ?? card.token,
    installmentType: input.installmentType,
    installmentCount,
    createdById: context.actor?.id ?? null,
  };
  const auditOf = (payment: TRecorded & { responseCode: string }): TRecordAuditInput => ({
    ...auditFieldsOf(context, "card_payment", transaction.id),
    action: payment.isApproved ? "card_payment.created" : "card_payment.refused",
    metadata: {
      amountCents: input.amountCents,
      orderId: input.orderId,
      installmentType: input.installmentType,
      installmentCount,
      bandeiraCartao: card.bandeiraCartao,
      cardLastFour: card.lastFour,
      bySavedCard: card.token !== null,
      savesCard: input.card.kind === "typed" && input.card.saveCard,
      responseCode: payment.responseCode,
      merchantAdviceCode: payment.merchantAdviceCode,
      idempotencyKey: input.idempotencyKey,
      isRecovery: attempt.isRecovery,
    },
  });
  const refusalOf = (payment: TRecorded): TCardRefusal | null =>
    payment.isApproved
      ? null
      : {
          orderKey: terminalOrderKey(input.orderId),
          card: retryCardOf(card),
          merchantAdviceCode: payment.merchantAdviceCode,
          paymentId: transaction.id,
        };
  const rows = newCardPaymentRows(transaction, knowledge, now);
  const refusal = refusalOf(rows.payment);
  const isCreated = await recordCreatedCardPayment({
    rows,
    idempotencyKey: { scope: attempt.scope, key: attempt.key },
    audit: auditOf(rows.payment),
    retryAdvice: refusal ? cardRetryAdviceRow(refusal, now) : null,
    now,
  });
  if (isCreated) {
    attempt.markSucceeded();
    const { isApproved, merchantAdviceCode, cardToken } = rows.payment;
    return { isApproved, merchantAdviceCode, cardToken };
  }
  // The mirror saw the payment first (a recovery, the list's refresh): merged as any snapshot is.
  return inTransaction(async (tx) => {
    const { payment } = await upsertCardPaymentFromGateway(transaction, knowledge, { client: tx, now });
    const mirroredRefusal = refusalOf(payment);
    if (mirroredRefusal) await recordCardRetryAdvice(tx, mirroredRefusal, now);
    await attempt.succeed(tx, transaction.id);
    await recordAudit(auditOf(payment), tx);
    return {
      isApproved: payment.isApproved,
      merchantAdviceCode: payment.merchantAdviceCode,
      cardToken: payment.cardToken,
    };
  });
}

// Charges once per idempotency key; a 400, outage or timeout is an AppError with `cardPayments.terminal.errors` keys.
export async function chargeFromTerminal(
  input: TTerminalPayment,
  context: TChangeContext,
  options: { canSaveCards?: boolean; canChargeSavedCards?: boolean } = {},
): Promise<TTerminalResult> {
  const createdById = context.actor?.id ?? null;
  const isSaved = input.card.kind === "saved";
  const isTokenize = input.card.kind === "typed" && input.card.saveCard;
  // Saved cards are an admin's to manage (/cards): saving one while paying is too.
  if (isTokenize && !options.canSaveCards)
    throw new AppError("FORBIDDEN", "cardPayments.terminal.errors.saveCardAdminOnly", {
      fieldErrors: { "card.saveCard": "saveCardAdminOnly" },
    });
  // A token charges a customer's card with no card in hand, any amount: admins only.
  if (isSaved && !options.canChargeSavedCards)
    throw new AppError("FORBIDDEN", "cardPayments.terminal.errors.savedCardAdminOnly", {
      fieldErrors: { "card.token": "savedCardAdminOnly" },
    });
  try {
    const card = await resolveCard(input.card, createdById);
    const body: TCardPaymentRequest = {
      identificacaoPagamento: input.orderId,
      numeroParcelas: installmentCountFor(input.installmentType, input.installmentCount),
      tipoParcelamento: input.installmentType,
      bandeiraCartao: card.bandeiraCartao,
      valor: centsToAmount(input.amountCents),
      ...card.body,
    };
    let recorded: TRecorded | undefined;
    const retryCard = retryCardOf(card);
    const { resultId, isReplay } = await runIdempotent({
      scope: terminalPaymentScope,
      key: input.idempotencyKey,
      // The fingerprint names the card by BIN, last four and expiry: a hash of the whole number is card data.
      request: {
        amountCents: input.amountCents,
        orderId: input.orderId,
        installmentType: input.installmentType,
        installmentCount: body.numeroParcelas,
        bandeiraCartao: card.bandeiraCartao,
        bin: card.bin,
        lastFour: card.lastFour,
        expiry: card.expiry,
        token: card.token,
        isTokenize,
      },
      actorId: createdById,
      // Checked before upstream (card networks fine a retry against the advice), read in the claim's own statement:
      // the advice is per order and card, whichever key asks.
      readBeside: {
        sql: retryBlocksJsonSql,
        values: retryBlocksValues(terminalOrderKey(input.orderId), retryCard),
      },
      // A retry the advice forbids never reached upstream: the key is free for another card.
      isCertainlyNotApplied: (error) => isRetryBlockError(error) || isCertainlyNotApplied(error),
      run: async (attempt) => {
        if (!attempt.isRecovery) refuseRetryAgainstAdvice(retryBlockOf(attempt.beside, retryCard));
        const transaction =
          (attempt.isRecovery ? await findPaymentOfEarlierAttempt(body) : null) ??
          (await sendPayment(body, isTokenize));
        recorded = await recordPayment(transaction, input, card, attempt, context);
        return transaction.id;
      },
    });
    const payment =
      recorded ??
      (await db.cardPayment.findUniqueOrThrow({
        where: { id: resultId },
        select: { isApproved: true, merchantAdviceCode: true, cardToken: true },
      }));
    if (isTokenize && !isReplay && payment.cardToken) await mirrorSavedCard(payment.cardToken, createdById);
    return { paymentId: resultId, ...payment, isReplay };
  } catch (error) {
    if (!(error instanceof AppError) || isGatewayError(error.cause))
      log.warn({ orderId: input.orderId, failure: describeGatewayFailure(error) }, "terminal: card payment failed");
    throw toTerminalError(error, isSaved);
  }
}

// The saved cards page learns of the new token now rather than at its next refresh; a failure costs only that.
async function mirrorSavedCard(token: string, createdById: string | null): Promise<void> {
  try {
    await syncCardToken(token, { createdById });
  } catch (error) {
    log.warn({ failure: describeGatewayFailure(error) }, "terminal: the saved card could not be mirrored yet");
  }
}
