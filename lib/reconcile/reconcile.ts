import "server-only";
import { z } from "zod";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { recordAudit, type TAuditActor } from "@/lib/audit/audit-log";
import { getReconcileEnv } from "@/lib/config/reconcile-env";
import { db } from "@/lib/db/client";
import { runAsSingleInstance } from "@/lib/db/single-instance";
import { runSql } from "@/lib/db/sql";
import { publishChange } from "@/lib/events/bus";
import type { Prisma, ReconciliationRun } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { resourceRegistry, type TResourceEntry } from "@/lib/resources/server-registry";
import type { TMirrorTable, TReconcilePass, TReconcileRun } from "./pass";

// Webhooks give up after ~8 minutes (spec 6.4): compare the mirror with upstream lists; only a lone read may move it back.

export type { THealedItem } from "./pass";

export const reconcileLockName = "reconcile:pix";
const pageSize = 100; // the upstream maximum
const maxRecordedErrors = 5;
const maxUnlistedReads = 200;

export type TReconcileOptions = {
  trigger: "schedule" | "manual";
  actor?: TAuditActor;
  now?: Date;
  windowHours?: number;
  olderChecks?: number;
};

export type TReconcileResult = { status: "skipped" } | { status: "finished"; run: ReconciliationRun };

type TKindPass = { kind: string; pass: TReconcilePass };

const ZScanned = z.record(z.string(), z.number().int().nonnegative());

export function readScanned(run: Pick<ReconciliationRun, "scanned">): Record<string, number> {
  const parsed = ZScanned.safeParse(run.scanned);
  return parsed.success ? parsed.data : {};
}

/** The reconciliation passes, in registry order: a charge is healed before its refunds. */
export function reconcilePassesOf(resources: readonly TResourceEntry[]): TKindPass[] {
  return resources.flatMap(({ descriptor, reconcile }) =>
    reconcile && descriptor.change ? [{ kind: descriptor.change, pass: reconcile }] : [],
  );
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const windowRowsSql = ({ name, id, createdAt }: TMirrorTable) => `
SELECT "${id}"::text AS "id" FROM "${name}"
WHERE "${createdAt}" >= ($1::timestamptz AT TIME ZONE 'UTC') AND "${createdAt}" <= ($2::timestamptz AT TIME ZONE 'UTC')`;

/** Returns how far back the list was read: older rows are the rolling check's. */
async function reconcileKind(
  { kind, pass }: TKindPass,
  window: { from: Date; to: Date },
  state: TReconcileRun,
): Promise<Date> {
  const period = { initialDate: window.from.toISOString(), endDate: window.to.toISOString() };
  const listed = new Set<string>();
  let coveredFrom = window.from;
  for (let page = 0; ; page += 1) {
    const result = await pass.list({ ...period, page, size: pageSize, sort: "creationDate,asc" });
    state.scanned[kind] = (state.scanned[kind] ?? 0) + result.content.length;
    if (pass.unlisted) for (const item of result.content) listed.add(pass.unlisted.idOf(item));
    await pass.heal(result.content, state);
    if (result.coveredFrom && result.coveredFrom > coveredFrom) coveredFrom = result.coveredFrom;
    if (result.last || result.content.length === 0) break;
  }
  // Only after the whole list was read: a list cut short would make every row after the cut look unknown.
  if (!pass.unlisted) return coveredFrom;
  const covered = { from: coveredFrom, to: window.to };
  const mirrored = await runSql<{ id: string }>(windowRowsSql(pass.unlisted.table), [
    covered.from.toISOString(),
    covered.to.toISOString(),
  ]);
  const unlisted = mirrored.map((row) => row.id).filter((id) => !listed.has(id));
  for (const id of unlisted.slice(0, maxUnlistedReads)) {
    try {
      await pass.unlisted.check(id, state);
    } catch (error) {
      state.errors.push(`${kind} ${id}: ${describeError(error)}`);
    }
  }
  if (unlisted.length > maxUnlistedReads)
    state.errors.push(`${kind}: ${unlisted.length - maxUnlistedReads} unlisted rows left for the next run`);
  return coveredFrom;
}

// Never-checked rows first (newest first), then the least recently checked: every row comes round in turn.
const olderRowsSql = ({ name, id, createdAt }: TMirrorTable) => `
(SELECT "${id}"::text AS "id" FROM "${name}"
 WHERE "gatewayCheckedAt" IS NULL AND "${createdAt}" < ($1::timestamptz AT TIME ZONE 'UTC')
 ORDER BY "${createdAt}" DESC LIMIT $2::int)
UNION ALL
(SELECT "${id}"::text AS "id" FROM "${name}"
 WHERE "gatewayCheckedAt" IS NOT NULL AND "${createdAt}" < ($1::timestamptz AT TIME ZONE 'UTC')
 ORDER BY "gatewayCheckedAt" ASC LIMIT $2::int)
LIMIT $2::int`;

const markCheckedSql = ({ name, id }: TMirrorTable) => `
UPDATE "${name}" SET "gatewayCheckedAt" = ($2::timestamptz AT TIME ZONE 'UTC')
WHERE "${id}" IN (SELECT jsonb_array_elements_text($1::jsonb))
RETURNING 1 AS "one"`;

/** Rows older than the window are in no list a run reads: a few are read by id each run, and a 404 held as drift. */
async function checkOlderRows({ kind, pass }: TKindPass, before: Date, limit: number, state: TReconcileRun) {
  if (!pass.unlisted || limit === 0) return;
  const { table, check } = pass.unlisted;
  const rows = await runSql<{ id: string }>(olderRowsSql(table), [before.toISOString(), limit]);
  const checked: string[] = [];
  for (const { id } of rows) {
    try {
      await check(id, state);
      checked.push(id);
    } catch (error) {
      state.errors.push(`${kind} ${id}: ${describeError(error)}`);
    }
  }
  if (checked.length > 0) await runSql(markCheckedSql(table), [JSON.stringify(checked), new Date().toISOString()]);
  state.scanned[kind] = (state.scanned[kind] ?? 0) + checked.length;
}

/** Runs every pass over the window; a pass whose list fails ends alone, so it hides nothing the others healed. */
export async function reconcileWindow(
  passes: readonly TKindPass[],
  window: { from: Date; to: Date },
  state: TReconcileRun,
  olderChecks = 0,
): Promise<void> {
  for (const entry of passes) {
    state.scanned[entry.kind] ??= 0;
    try {
      const coveredFrom = await reconcileKind(entry, window, state);
      await checkOlderRows(entry, coveredFrom, olderChecks, state);
    } catch (error) {
      // First among the recorded errors: a list that could not be read leaves the whole kind unchecked.
      state.errors.unshift(`${entry.kind}: ${describeError(error)}`);
    }
  }
}

async function execute(options: TReconcileOptions): Promise<ReconciliationRun> {
  const now = options.now ?? new Date();
  const settings = getReconcileEnv();
  const windowHours = options.windowHours ?? settings.RECONCILE_WINDOW_HOURS;
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
  const state: TReconcileRun = { scanned: {}, healed: [], errors: [], visited: new Set() };
  await reconcileWindow(
    reconcilePassesOf(resourceRegistry),
    { from: run.windowFrom, to: run.windowTo },
    state,
    options.olderChecks ?? settings.RECONCILE_OLDER_CHECKS,
  );
  const { healed } = state;
  if (state.errors.length > 0)
    log.warn({ runId: run.id, errors: state.errors.slice(0, maxRecordedErrors) }, "reconciliation: some reads failed");
  if (healed.length > 0) log.info({ runId: run.id, healed }, "reconciliation healed the mirror");
  const finished = await db.reconciliationRun.update({
    where: { id: run.id },
    data: {
      status: state.errors.length > 0 ? "FAILED" : "SUCCEEDED",
      finishedAt: new Date(),
      scanned: state.scanned,
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
