import "server-only";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { recordAudit, type TAuditActor } from "@/lib/audit/audit-log";
import { getReconcileEnv } from "@/lib/config/reconcile-env";
import { db } from "@/lib/db/client";
import { runAsSingleInstance } from "@/lib/db/single-instance";
import { publishChange } from "@/lib/events/bus";
import type { Prisma, ReconciliationRun } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { reconcileCardPayments, type TCardPaymentsPass } from "@/lib/payments/sync";
import type { TAnyEventKind, TReconcileRun, THealedItem as TWebhookHealedItem } from "@/lib/webhooks/event-kind";
import { allEventKinds } from "@/lib/webhooks/event-kinds";

// The gateway gives up on a webhook after about 8 minutes (spec 6.4): this pass compares the mirror with the upstream
// lists (Pix charges, refunds, payment links, card payments) and reads each disagreeing resource alone. That read is
// authoritative: it moves the mirror forward, or back once a second read confirms it, recording the drift
// (lib/reconcile/drift.ts); a list item alone never moves anything back.

// A card payment is healed too, though no webhook announces it.
export type THealedItem = TWebhookHealedItem | { kind: "card_payment"; id: string; from: string | null; to: string };

export const reconcileLockName = "reconcile:pix";
const pageSize = 100; // the upstream maximum
const maxRecordedErrors = 5;

export type TReconcileOptions = {
  trigger: "schedule" | "manual";
  actor?: TAuditActor;
  now?: Date;
  windowHours?: number;
};

export type TReconcileResult = { status: "skipped" } | { status: "finished"; run: ReconciliationRun };

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function reconcileKind(
  reconcile: NonNullable<TAnyEventKind["reconcile"]>,
  period: { initialDate: string; endDate: string },
  state: TReconcileRun,
): Promise<void> {
  for (let page = 0; ; page += 1) {
    const result = await reconcile.list({ ...period, page, size: pageSize, sort: "creationDate,asc" });
    await reconcile.heal(result.content, state);
    if (result.last || result.content.length === 0) return;
  }
}

async function reconcileWindow(run: ReconciliationRun, state: TReconcileRun): Promise<void> {
  const period = { initialDate: run.windowFrom.toISOString(), endDate: run.windowTo.toISOString() };
  for (const kind of allEventKinds) if (kind.reconcile) await reconcileKind(kind.reconcile, period, state);
}

// Its own pass, after the webhook kinds: a failed card read does not hide what the Pix pass healed, and vice versa.
async function reconcileCardWindow(run: ReconciliationRun, cards: TCardPaymentsPass, errors: string[]): Promise<void> {
  try {
    await reconcileCardPayments(run.windowFrom, cards);
  } catch (error) {
    errors.push(`card payments: ${describeError(error)}`);
  }
}

async function execute(options: TReconcileOptions): Promise<ReconciliationRun> {
  const now = options.now ?? new Date();
  const windowHours = options.windowHours ?? getReconcileEnv().RECONCILE_WINDOW_HOURS;
  const run = await db.reconciliationRun.create({
    data: {
      trigger: options.trigger === "manual" ? "MANUAL" : "SCHEDULE",
      startedAt: now,
      windowFrom: new Date(now.getTime() - windowHours * 3_600_000),
      windowTo: now,
      actorId: options.actor?.id ?? null,
      actorEmail: options.actor?.email ?? null,
    },
  });
  await publishChange({ kind: "reconciliation", id: run.id });
  const state: TReconcileRun = {
    scanned: { pix_charge: 0, pix_refund: 0, payment_link: 0 },
    healed: [],
    errors: [],
    visited: new Set(),
  };
  const cards: TCardPaymentsPass = { scanned: 0, healed: [] };
  try {
    await reconcileWindow(run, state);
  } catch (error) {
    state.errors.unshift(describeError(error));
  }
  await reconcileCardWindow(run, cards, state.errors);
  const healed: THealedItem[] = [
    ...state.healed,
    ...cards.healed.map((item) => ({ kind: "card_payment" as const, ...item })),
  ];
  if (state.errors.length > 0)
    log.warn({ runId: run.id, errors: state.errors.slice(0, maxRecordedErrors) }, "reconciliation: some reads failed");
  if (healed.length > 0) log.info({ runId: run.id, healed }, "reconciliation healed the mirror");
  const finished = await db.reconciliationRun.update({
    where: { id: run.id },
    data: {
      status: state.errors.length > 0 ? "FAILED" : "SUCCEEDED",
      finishedAt: new Date(),
      chargesScanned: state.scanned.pix_charge,
      refundsScanned: state.scanned.pix_refund,
      cardPaymentsScanned: cards.scanned,
      paymentLinksScanned: state.scanned.payment_link,
      healed: healed as unknown as Prisma.InputJsonArray,
      healedCount: healed.length,
      error: state.errors.length > 0 ? state.errors.slice(0, maxRecordedErrors).join("\n") : null,
    },
  });
  await publishChange({ kind: "reconciliation", id: run.id });
  return finished;
}

// Read failures do not stop the pass: it heals what it can and ends FAILED, so the admin sees what went unchecked.
export async function runReconciliation(options: TReconcileOptions): Promise<TReconcileResult> {
  const result = await runAsSingleInstance(reconcileLockName, () => execute(options));
  return result.isAcquired ? { status: "finished", run: result.value } : { status: "skipped" };
}

export async function runManualReconciliation(context: TChangeContext): Promise<TReconcileResult> {
  const result = await runReconciliation({ trigger: "manual", actor: context.actor });
  await recordAudit({
    actor: context.actor,
    action: "reconciliation.requested",
    resourceType: "reconciliation_run",
    resourceId: result.status === "finished" ? result.run.id : undefined,
    ip: context.ip,
    userAgent: context.userAgent,
    metadata:
      result.status === "finished"
        ? { status: result.run.status, healedCount: result.run.healedCount }
        : { status: "skipped" },
  });
  return result;
}

export function findRecentReconciliationRuns(limit = 10): Promise<ReconciliationRun[]> {
  return db.reconciliationRun.findMany({ orderBy: { startedAt: "desc" }, take: limit });
}
