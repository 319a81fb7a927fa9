import "server-only";
import { type AuditActor, recordAudit } from "@/lib/audit/audit-log";
import { getReconcileEnv } from "@/lib/config/reconcile-env";
import { db } from "@/lib/db/client";
import { runAsSingleInstance } from "@/lib/db/single-instance";
import { publishChange } from "@/lib/events/bus";
import { getPixCharge, listPixCharges } from "@/lib/gateway/pix-charges";
import { listPixRefunds } from "@/lib/gateway/pix-refunds";
import type { TPixChargeListItem } from "@/lib/gateway/schemas/pix-charge";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import type { Prisma, ReconciliationRun } from "@/lib/generated/prisma/client";
import { recordLinkPaymentFromCharge } from "@/lib/links/pix";
import { log } from "@/lib/log";
import { upsertPixChargeFromGateway, upsertPixRefundFromGateway } from "@/lib/pix/mirror";
import type { ChangeContext } from "@/lib/users/users";

// The gateway gives up on a webhook after about 8 minutes (spec 6.4). This pass reads the
// upstream lists for a recent creation window and writes into the mirror whatever it lacks,
// through the same idempotent, never-backwards mirror functions the webhooks use: a webhook
// arriving after the run changes nothing, and a run never undoes a newer webhook.

export const reconcileLockName = "reconcile:pix";
const pageSize = 100; // the upstream maximum
const maxRecordedErrors = 5;

export type THealedItem = { kind: "pix_charge" | "pix_refund"; id: string; from: string | null; to: string };

export type ReconcileOptions = {
  trigger: "schedule" | "manual";
  actor?: AuditActor;
  now?: Date;
  windowHours?: number;
};

export type ReconcileResult = { status: "skipped" } | { status: "finished"; run: ReconciliationRun };

type RunState = {
  chargesScanned: number;
  refundsScanned: number;
  healed: THealedItem[];
  errors: string[];
  readTxids: Set<string>;
};

async function* pages<T>(read: (page: number) => Promise<{ content: T[]; last: boolean }>): AsyncGenerator<T[]> {
  for (let page = 0; ; page += 1) {
    const result = await read(page);
    yield result.content;
    if (result.last || result.content.length === 0) return;
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// A full read carries the payment and the refunds that a list item lacks; what it changed in
// the charge's status and in its refunds is recorded.
async function healCharge(txid: string, state: RunState): Promise<void> {
  if (state.readTxids.has(txid)) return;
  state.readTxids.add(txid);
  const before = await db.pixCharge.findUnique({
    where: { txid },
    select: { status: true, refunds: { select: { pixRefundId: true, statusCode: true } } },
  });
  const upstream = await getPixCharge(txid);
  const { outcome, charge } = await upsertPixChargeFromGateway(upstream);
  await recordLinkPaymentFromCharge(upstream);
  if (outcome !== "created" && outcome !== "updated") return;
  if (before?.status !== charge.status)
    state.healed.push({ kind: "pix_charge", id: txid, from: before?.status ?? null, to: charge.status });
  const codeBefore = new Map(before?.refunds.map((refund) => [refund.pixRefundId, refund.statusCode]));
  for (const refund of charge.refunds)
    recordRefundHeal(state, refund.pixRefundId, codeBefore.get(refund.pixRefundId), refund.statusCode);
}

function recordRefundHeal(state: RunState, pixRefundId: string, before: number | undefined, after: number): void {
  if (before === after || state.healed.some((item) => item.kind === "pix_refund" && item.id === pixRefundId)) return;
  state.healed.push({
    kind: "pix_refund",
    id: pixRefundId,
    from: before === undefined ? null : String(before),
    to: String(after),
  });
}

async function reconcileCharges(items: TPixChargeListItem[], state: RunState): Promise<void> {
  state.chargesScanned += items.length;
  const mirrored = await db.pixCharge.findMany({
    where: { txid: { in: items.map((item) => item.txid) } },
    select: { txid: true, status: true },
  });
  const statusByTxid = new Map(mirrored.map((row) => [row.txid, row.status]));
  for (const item of items) {
    if (statusByTxid.get(item.txid) === item.status) continue;
    try {
      await healCharge(item.txid, state);
    } catch (error) {
      state.errors.push(`pix_charge ${item.txid}: ${describeError(error)}`);
    }
  }
}

async function reconcileRefunds(items: TPixRefund[], state: RunState): Promise<void> {
  state.refundsScanned += items.length;
  const mirrored = await db.pixRefund.findMany({
    where: { pixRefundId: { in: items.map((item) => item.pixRefundId) } },
    select: { pixRefundId: true, statusCode: true },
  });
  const codeById = new Map(mirrored.map((row) => [row.pixRefundId, row.statusCode]));
  for (const refund of items) {
    const before = codeById.get(refund.pixRefundId);
    if (before === refund.status.code) continue;
    try {
      // The charge's status and refunded amount follow its refunds: read it whole first (its
      // refunds come with it), then the refund itself in case the charge read is older.
      await healCharge(refund.pixChargeTxid, state);
      await upsertPixRefundFromGateway(refund);
      const after = await db.pixRefund.findUnique({
        where: { pixRefundId: refund.pixRefundId },
        select: { statusCode: true },
      });
      if (after) recordRefundHeal(state, refund.pixRefundId, before, after.statusCode);
    } catch (error) {
      state.errors.push(`pix_refund ${refund.pixRefundId}: ${describeError(error)}`);
    }
  }
}

async function reconcileWindow(run: ReconciliationRun, state: RunState): Promise<void> {
  const period = { initialDate: run.windowFrom.toISOString(), endDate: run.windowTo.toISOString() };
  for await (const items of pages((page) =>
    listPixCharges({ ...period, page, size: pageSize, sort: "creationDate,asc" }),
  )) {
    await reconcileCharges(items, state);
  }
  for await (const items of pages((page) =>
    listPixRefunds({ ...period, page, size: pageSize, sort: "creationDate,asc" }),
  )) {
    await reconcileRefunds(items, state);
  }
}

async function execute(options: ReconcileOptions): Promise<ReconciliationRun> {
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
  const state: RunState = { chargesScanned: 0, refundsScanned: 0, healed: [], errors: [], readTxids: new Set() };
  try {
    await reconcileWindow(run, state);
  } catch (error) {
    state.errors.unshift(describeError(error));
  }
  if (state.errors.length > 0)
    log.warn({ runId: run.id, errors: state.errors.slice(0, maxRecordedErrors) }, "reconciliation: some reads failed");
  if (state.healed.length > 0) log.info({ runId: run.id, healed: state.healed }, "reconciliation healed the mirror");
  const finished = await db.reconciliationRun.update({
    where: { id: run.id },
    data: {
      status: state.errors.length > 0 ? "FAILED" : "SUCCEEDED",
      finishedAt: new Date(),
      chargesScanned: state.chargesScanned,
      refundsScanned: state.refundsScanned,
      healed: state.healed as unknown as Prisma.InputJsonArray,
      healedCount: state.healed.length,
      error: state.errors.length > 0 ? state.errors.slice(0, maxRecordedErrors).join("\n") : null,
    },
  });
  await publishChange({ kind: "reconciliation", id: run.id });
  return finished;
}

/**
 * One reconciliation pass, unless another instance is running one (then `skipped`, and nothing is
 * recorded). Read failures do not stop the pass: it heals what it can and ends FAILED with the
 * first errors, so the admin page shows that something was not checked.
 */
export async function runReconciliation(options: ReconcileOptions): Promise<ReconcileResult> {
  const result = await runAsSingleInstance(reconcileLockName, () => execute(options));
  return result.isAcquired ? { status: "finished", run: result.value } : { status: "skipped" };
}

/** An admin's "reconcile now": audited (also when another run was in progress), then run. */
export async function runManualReconciliation(context: ChangeContext): Promise<ReconcileResult> {
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
