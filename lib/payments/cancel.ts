import "server-only";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { inTransaction } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { AppError } from "@/lib/errors";
import {
  GatewayHttpError,
  GatewayRefusedError,
  GatewayTimeoutError,
  GatewayUnavailableError,
  isCertainlyNotApplied,
  isGatewayError,
  toAppError,
} from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payments";
import type { TPaymentCancellation } from "@/lib/gateway/schemas/payment";
import { runIdempotent, type TIdempotentAttempt } from "@/lib/idempotency/idempotency";
import { log } from "@/lib/log";
import { cardPaymentAuditResourceType, syncCardPayment } from "./detail";
import {
  findMirroredCardPayment,
  lockCardPayment,
  recordCardPaymentCancellation,
  type TMirroredCardPayment,
  upsertCardPaymentFromGateway,
} from "./mirror";
import { cancelledCentsOf } from "./types";
import { statusKindOf, type TCardPaymentView, toCardPaymentView } from "./views";

// Cancel (spec 4.1: PUT /payments/{id}/cancel, no body) undoes the whole payment: the API has no partial cancel.
// One idempotency key per confirmation dialog; the payment's lock is held across the upstream call, so a second
// cancel of the same payment (another key, another person) waits, then sees it cancelled and never calls upstream.

export const cardPaymentCancelScope = "card_payment_cancel";

// Room for a queue of cancels of one payment, each bounded by the gateway's response timeout.
const cancelTransactionOptions = { maxWait: 60_000, timeout: 120_000 };

/** Error messages are keys under `cardPayments.errors` (the page words them per language). */
export const cancelErrorKeys = {
  alreadyCancelled: "alreadyCancelled",
  refused: "paymentRefused",
  notCancellable: "notCancellable",
  cancelRefused: "cancelRefused",
  outcomeUnknown: "cancelOutcomeUnknown",
} as const;

export type TCancelCardPayment = { paymentId: string; idempotencyKey: string };

const auditFields = (context: TChangeContext, paymentId: string) =>
  auditFieldsOf(context, cardPaymentAuditResourceType, paymentId);

function notCancellableError(payment: Pick<TMirroredCardPayment, "status" | "isApproved">, cause?: unknown) {
  const kind = statusKindOf(payment);
  const key =
    kind === "cancelled"
      ? cancelErrorKeys.alreadyCancelled
      : kind === "refused"
        ? cancelErrorKeys.refused
        : cancelErrorKeys.notCancellable;
  return new AppError("CONFLICT", key, { cause });
}

// Timeouts and cut connections leave the outcome unknown: the cancel may have gone through.
const isOutcomeUnknown = (error: unknown) =>
  (error instanceof GatewayTimeoutError && error.phase === "response") ||
  (error instanceof GatewayUnavailableError && !isCertainlyNotApplied(error)) ||
  (error instanceof GatewayHttpError && error.status >= 500);

async function loadForCancel(tx: TMirrorClient, paymentId: string, isRecovery: boolean) {
  const mirrored = await tx.cardPayment.findUnique({ where: { id: paymentId } });
  // A final status never moves back, so the mirror decides; an open one is read again after a lost answer.
  if (mirrored && (statusKindOf(mirrored) !== "approved" || !isRecovery)) return mirrored;
  try {
    return (await syncCardPayment(paymentId, { client: tx })) ?? mirrored;
  } catch (error) {
    if (mirrored) throw error;
    throw toAppError(error);
  }
}

async function recordCancelled(
  tx: TMirrorClient,
  paymentId: string,
  cancellation: TPaymentCancellation | null,
  attempt: TIdempotentAttempt,
  context: TChangeContext,
  via: "answer" | "read",
) {
  const payment = cancellation
    ? await recordCardPaymentCancellation(paymentId, cancellation, { client: tx })
    : await tx.cardPayment.findUniqueOrThrow({ where: { id: paymentId } });
  await attempt.succeed(tx, paymentId);
  await recordAudit(
    {
      ...auditFields(context, paymentId),
      action: "card_payment.cancelled",
      metadata: {
        amountCents: payment.amountCents,
        cancelledCents: cancellation ? cancelledCentsOf(cancellation) : payment.cancelledCents,
        confirmedBy: via,
        idempotencyKey: attempt.key,
        isRecovery: attempt.isRecovery,
        ...(cancellation?.numeroAutorizacao ? { authorizationNumber: cancellation.numeroAutorizacao } : {}),
      },
    },
    tx,
  );
}

// The payment after an unclear upstream answer: read it again, and if it turned CAN the cancel went through.
async function readAfterUnknownOutcome(tx: TMirrorClient, paymentId: string): Promise<boolean> {
  try {
    const transaction = await gateway.getPayment(paymentId);
    await upsertCardPaymentFromGateway(transaction, { origin: "GATEWAY" }, { client: tx });
    return statusKindOf({ status: transaction.status, isApproved: transaction.codigo === "0" }) === "cancelled";
  } catch (readError) {
    log.warn({ err: readError, paymentId }, "card payment read after an unclear cancel failed");
    return false;
  }
}

async function auditFailure(context: TChangeContext, paymentId: string, error: unknown): Promise<void> {
  const isRefusal =
    error instanceof GatewayRefusedError ||
    (error instanceof GatewayHttpError && error.status >= 400 && error.status < 500);
  const metadata =
    error instanceof GatewayRefusedError
      ? { codigo: error.codigo, mensagem: error.mensagem ?? "" }
      : error instanceof GatewayHttpError
        ? { httpStatus: error.status, upstreamCode: error.errorCode ?? "", reason: error.message.slice(0, 300) }
        : { reason: error instanceof Error ? error.message.slice(0, 300) : String(error) };
  await recordAudit({
    ...auditFields(context, paymentId),
    action: isRefusal ? "card_payment.cancel_refused" : "card_payment.cancel_failed",
    metadata,
  }).catch((auditError: unknown) => log.error({ err: auditError, paymentId }, "card payment cancel audit failed"));
}

/**
 * Cancels a card payment in full, once per idempotency key: a double click or a retry gets the first answer.
 * Refused (409, codigo ≠ 0): the payment is read again so the page shows why. Timed out: read again too; when the
 * gateway shows it cancelled the cancel counts as done, otherwise the key stays open for a retry that reads first.
 */
export async function cancelCardPayment(input: TCancelCardPayment, context: TChangeContext): Promise<TCardPaymentView> {
  const { paymentId, idempotencyKey } = input;
  let isCalled = false;
  const cancelOnce = (attempt: TIdempotentAttempt): Promise<string> =>
    inTransaction(async (tx) => {
      await lockCardPayment(tx, paymentId);
      const payment = await loadForCancel(tx, paymentId, attempt.isRecovery);
      if (!payment) throw new AppError("NOT_FOUND", "Card payment not found.");
      const kind = statusKindOf(payment);
      // A recovery that finds the payment cancelled: an earlier attempt of this key did it.
      if (kind === "cancelled" && attempt.isRecovery) {
        await recordCancelled(tx, paymentId, null, attempt, context, "read");
        return paymentId;
      }
      if (kind !== "approved") throw notCancellableError(payment);
      isCalled = true;
      let cancellation: TPaymentCancellation;
      try {
        cancellation = await gateway.cancelPayment(paymentId);
      } catch (error) {
        if (isOutcomeUnknown(error) && (await readAfterUnknownOutcome(tx, paymentId))) {
          await recordCancelled(tx, paymentId, null, attempt, context, "read");
          return paymentId;
        }
        throw error;
      }
      await recordCancelled(tx, paymentId, cancellation, attempt, context, "answer");
      return paymentId;
    }, cancelTransactionOptions);

  try {
    await runIdempotent({
      scope: cardPaymentCancelScope,
      key: idempotencyKey,
      request: { paymentId },
      actorId: context.actor?.id ?? null,
      // A refusal (codigo ≠ 0) changed nothing upstream either: the same dialog may try again.
      isCertainlyNotApplied: (error) =>
        !isCalled || error instanceof GatewayRefusedError || isCertainlyNotApplied(error),
      run: cancelOnce,
    });
  } catch (error) {
    throw await explainFailure(paymentId, context, error);
  }
  const payment = await findMirroredCardPayment(paymentId);
  if (!payment) throw new AppError("NOT_FOUND", "Card payment not found.");
  return toCardPaymentView(payment);
}

// Outside the rolled-back transaction: audit the upstream failure and read the payment again, so the page shows
// the state the gateway now reports.
async function explainFailure(paymentId: string, context: TChangeContext, error: unknown): Promise<AppError> {
  if (!isGatewayError(error)) return toAppError(error);
  await auditFailure(context, paymentId, error);
  const current = await syncCardPayment(paymentId).catch((readError: unknown) => {
    log.warn({ err: readError, paymentId }, "card payment read after a failed cancel failed");
    return null;
  });
  if (error instanceof GatewayHttpError && error.status === 409) {
    return current
      ? notCancellableError(current, error)
      : new AppError("CONFLICT", cancelErrorKeys.notCancellable, { cause: error });
  }
  if (error instanceof GatewayRefusedError) {
    // The authorizer's codigo and mensagem are shown as sent (they are no translation keys).
    return new AppError("UNPROCESSABLE", cancelErrorKeys.cancelRefused, {
      cause: error,
      fieldErrors: { codigo: error.codigo, mensagem: error.mensagem ?? "" },
    });
  }
  if (isOutcomeUnknown(error)) {
    return new AppError("UPSTREAM_TIMEOUT", cancelErrorKeys.outcomeUnknown, { cause: error });
  }
  return toAppError(error);
}
