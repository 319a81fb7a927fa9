import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { admitMoneyReturn, forgetMoneyReturn } from "@/lib/approvals/money-policy";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
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
import type { TPaymentCancellation, TPaymentTransaction } from "@/lib/gateway/schemas/payment";
import { defaultWaitMs, runIdempotent, type TIdempotentAttempt } from "@/lib/idempotency/idempotency";
import { log } from "@/lib/log";
import { isCardPaymentApproved } from "@/lib/shared/card-approval";
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

// Cancel (spec 4.1) undoes the whole payment. No transaction spans the upstream call (the embedded database has one
// connection): a short locked transaction claims it (a lease), the gateway is called outside, another records the answer.

const cardPaymentCancelScope = "card_payment_cancel";

// Longer than cancel + read after an unclear answer (5 s + 15 s each): a live cancel keeps its claim.
const cancelClaimMs = 60_000;
// A second cancel waits this long for one in flight (as a repeated idempotency key does), then answers "in progress".
const claimWaitMs = defaultWaitMs;
const claimPollMs = 100;

const cancelErrorKeys = {
  alreadyCancelled: "cardPayments.errors.alreadyCancelled",
  refused: "cardPayments.errors.paymentRefused",
  notCancellable: "cardPayments.errors.notCancellable",
  cancelRefused: "cardPayments.errors.cancelRefused",
  outcomeUnknown: "cardPayments.errors.cancelOutcomeUnknown",
  inProgress: "cardPayments.errors.cancelInProgress",
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

// A final status never moves back, so the mirror decides; upstream is read if unknown or after a lost answer.
async function readForCancel(paymentId: string, isRecovery: boolean): Promise<void> {
  const mirrored = await db.cardPayment.findUnique({
    where: { id: paymentId },
    select: { status: true, isApproved: true },
  });
  if (mirrored && (statusKindOf(mirrored) !== "approved" || !isRecovery)) return;
  try {
    await syncCardPayment(paymentId);
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

type TClaim = { kind: "claimed"; until: Date } | { kind: "recorded" } | { kind: "busy" };

type TCancelPolicy = { initiatedById: string | null; isApproved: boolean };

// Under the payment's lock, like every mirror write of it: of two cancels, whichever comes second sees the other.
function claimForCancel(
  paymentId: string,
  attempt: TIdempotentAttempt,
  context: TChangeContext,
  policy: TCancelPolicy,
): Promise<TClaim> {
  return inTransaction(async (tx) => {
    await lockCardPayment(tx, paymentId);
    const payment = await tx.cardPayment.findUnique({ where: { id: paymentId } });
    if (!payment) throw new AppError("NOT_FOUND", "cardPayments.errors.notFound");
    const kind = statusKindOf(payment);
    // A recovery that finds the payment cancelled: an earlier attempt of this key did it.
    if (kind === "cancelled" && attempt.isRecovery) {
      await recordCancelled(tx, paymentId, null, attempt, context, "read");
      return { kind: "recorded" };
    }
    if (kind !== "approved") throw notCancellableError(payment);
    const now = Date.now();
    if (payment.cancelClaimUntil && payment.cancelClaimUntil.getTime() > now) return { kind: "busy" };
    // Money back to a card: the same policy as a Pix refund (lib/approvals/money-policy.ts); held, it throws.
    await admitMoneyReturn(tx, {
      kind: "CARD_CANCEL",
      resourceId: paymentId,
      amountCents: payment.amountCents,
      priorCents: 0,
      idempotencyKey: attempt.key,
      initiatedById: policy.initiatedById,
      clearance: policy.isApproved ? "approved" : "none",
    });
    const until = new Date(now + cancelClaimMs);
    await tx.cardPayment.update({
      where: { id: paymentId },
      data: { cancelClaimUntil: until, updatedAt: payment.updatedAt },
    });
    return { kind: "claimed", until };
  });
}

async function claimOrWait(
  paymentId: string,
  attempt: TIdempotentAttempt,
  context: TChangeContext,
  waitMs: number,
  policy: TCancelPolicy,
): Promise<Exclude<TClaim, { kind: "busy" }>> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const claim = await claimForCancel(paymentId, attempt, context, policy);
    if (claim.kind !== "busy") return claim;
    if (Date.now() >= deadline) throw new AppError("CONFLICT", cancelErrorKeys.inProgress);
    await sleep(claimPollMs);
  }
}

// Only this cancel's own claim: one that ran out may have been taken over meanwhile.
async function releaseClaim(client: TMirrorClient, paymentId: string, until: Date): Promise<void> {
  const row = await client.cardPayment.findUnique({ where: { id: paymentId }, select: { updatedAt: true } });
  if (!row) return;
  await client.cardPayment.updateMany({
    where: { id: paymentId, cancelClaimUntil: until },
    data: { cancelClaimUntil: null, updatedAt: row.updatedAt },
  });
}

type TUpstreamOutcome =
  | { via: "answer"; cancellation: TPaymentCancellation }
  | { via: "read"; transaction: TPaymentTransaction };

// The payment after an unclear upstream answer: read it again; if it turned CAN the cancel went through.
async function readAfterUnknownOutcome(paymentId: string): Promise<TPaymentTransaction | null> {
  try {
    const transaction = await gateway.getPayment(paymentId);
    const kind = statusKindOf({ status: transaction.status, isApproved: isCardPaymentApproved(transaction) });
    return kind === "cancelled" ? transaction : null;
  } catch (readError) {
    log.warn({ err: readError, paymentId }, "card payment read after an unclear cancel failed");
    return null;
  }
}

// Outside any transaction; throws the cancel's error unless the read shows it cancelled.
async function cancelUpstream(paymentId: string): Promise<TUpstreamOutcome> {
  try {
    return { via: "answer", cancellation: await gateway.cancelPayment(paymentId) };
  } catch (error) {
    if (!isOutcomeUnknown(error)) throw error;
    const transaction = await readAfterUnknownOutcome(paymentId);
    if (transaction) return { via: "read", transaction };
    throw error;
  }
}

// Mirror, key and audit commit together, and the claim ends with them.
function recordOutcome(
  paymentId: string,
  until: Date,
  outcome: TUpstreamOutcome,
  attempt: TIdempotentAttempt,
  context: TChangeContext,
): Promise<void> {
  return inTransaction(async (tx) => {
    await lockCardPayment(tx, paymentId);
    if (outcome.via === "answer") {
      await recordCancelled(tx, paymentId, outcome.cancellation, attempt, context, "answer");
    } else {
      await upsertCardPaymentFromGateway(outcome.transaction, { origin: "GATEWAY" }, { client: tx });
      await recordCancelled(tx, paymentId, null, attempt, context, "read");
    }
    await releaseClaim(tx, paymentId, until);
  });
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

// Once per idempotency key; a refusal or timeout reads again so the page shows why; a cancel in flight is awaited.
export async function cancelCardPayment(
  input: TCancelCardPayment,
  context: TChangeContext,
  options: { claimWaitMs?: number; approvedRequestOf?: string } = {},
): Promise<TCardPaymentView> {
  const { paymentId, idempotencyKey } = input;
  const policy: TCancelPolicy = {
    initiatedById: options.approvedRequestOf ?? context.actor?.id ?? null,
    isApproved: options.approvedRequestOf !== undefined,
  };
  let isCalled = false;
  const cancelOnce = async (attempt: TIdempotentAttempt): Promise<string> => {
    await readForCancel(paymentId, attempt.isRecovery);
    const claim = await claimOrWait(paymentId, attempt, context, options.claimWaitMs ?? claimWaitMs, policy);
    if (claim.kind === "recorded") return paymentId;
    try {
      isCalled = true;
      const outcome = await cancelUpstream(paymentId);
      await recordOutcome(paymentId, claim.until, outcome, attempt, context);
    } catch (error) {
      await releaseClaim(db, paymentId, claim.until).catch((releaseError: unknown) =>
        log.warn({ err: releaseError, paymentId }, "card payment cancel claim not released: it runs out"),
      );
      // Only when the gateway certainly did not cancel: otherwise the amount keeps counting against its person.
      if (error instanceof GatewayRefusedError || isCertainlyNotApplied(error)) {
        await forgetMoneyReturn(db, "CARD_CANCEL", attempt.key).catch((forgetError: unknown) =>
          log.warn({ err: forgetError, paymentId }, "card payment cancel not uncounted from its person"),
        );
      }
      throw error;
    }
    return paymentId;
  };

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
  if (!payment) throw new AppError("NOT_FOUND", "cardPayments.errors.notFound");
  return toCardPaymentView(payment);
}

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
