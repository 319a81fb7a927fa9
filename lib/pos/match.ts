import "server-only";
import { db, inTransaction, type TTransactionClient } from "@/lib/db/client";
import { takeTransactionLock } from "@/lib/db/locks";
import { publishChange } from "@/lib/events/bus";
import type { CardPayment, PosMatchStatus, PosTransactionReport } from "@/lib/generated/prisma/client";

// docs/pos.md, "Reconciliation rule". authorizationCode is `numeroAutorizacao`: `codigoAutorizacao` is the authorizer's
// response code ("00" in the sandbox).

export const posMatchGraceMs = 15 * 60_000;
// Older unmatched reports are left as they are (the job would re-read them forever).
const posMatchLookbackMs = 45 * 24 * 60 * 60_000;
const posMatchBudget = 5_000;
// Back-off base × 2^(n-1), capped: a hopeless report stops costing every pass; a late one heals within a day.
export const posMatchBackoff = { baseMs: 5 * 60_000, maxMs: 24 * 60 * 60_000 } as const;

export function nextMissingTry(missingPasses: number, now: Date): Date {
  const waitMs = Math.min(posMatchBackoff.baseMs * 2 ** Math.max(0, missingPasses - 1), posMatchBackoff.maxMs);
  return new Date(now.getTime() + waitMs);
}

export type TPosMatchResult = {
  checked: number;
  matched: number;
  amountMismatch: number;
  missing: number;
  pending: number;
};

export type TPosMatchOptions = {
  budget?: number;
  ignoreBackoff?: boolean;
};

type TCandidate = Pick<
  CardPayment,
  "id" | "amountCents" | "authorizationNumber" | "hostUsn" | "gatewayUsn" | "terminalId"
>;

const identityKey = (tenantId: string, authorization: string, nsuHost: string, nsuGateway: string) =>
  `${tenantId}\u0000${authorization}\u0000${nsuHost}\u0000${nsuGateway}`;

function decideMatch(
  report: Pick<PosTransactionReport, "approved" | "amountCents" | "receivedAt">,
  candidate: Pick<CardPayment, "amountCents"> | undefined,
  now: Date,
): PosMatchStatus {
  if (!report.approved) return "PENDING";
  if (candidate) return candidate.amountCents === report.amountCents ? "MATCHED" : "AMOUNT_MISMATCH";
  return now.getTime() - report.receivedAt.getTime() < posMatchGraceMs ? "PENDING" : "MISSING_AT_GATEWAY";
}

// One matching pass; passes take turns (advisory lock) so two never hand one card payment to two reports.
export function runPosMatching(now: Date = new Date(), options: TPosMatchOptions = {}): Promise<TPosMatchResult> {
  return inTransaction(async (tx) => {
    await takeTransactionLock(tx, "pos-matching");
    return matchPass(tx, now, options);
  });
}

// Each tenant's newest first, dealt in turns, so one tenant's flood cannot starve the others.
async function dueReportIds(tx: TTransactionClient, now: Date, options: TPosMatchOptions): Promise<string[]> {
  const lookback = new Date(now.getTime() - posMatchLookbackMs);
  const ignoreBackoff = options.ignoreBackoff ?? false;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id"::text AS "id" FROM (
      SELECT "id", "occurredAt",
        row_number() OVER (PARTITION BY "tenantId" ORDER BY "occurredAt" DESC, "id" DESC) AS "turn"
      FROM "PosTransactionReport"
      WHERE "matchStatus" <> 'MATCHED' AND "approved" AND "occurredAt" >= ${lookback}
        AND (${ignoreBackoff} OR "nextMatchAt" IS NULL OR "nextMatchAt" <= ${now})
    ) AS due
    ORDER BY "turn", "occurredAt" DESC, "id" DESC
    LIMIT ${options.budget ?? posMatchBudget}`;
  return rows.map((row) => row.id);
}

async function matchPass(tx: TTransactionClient, now: Date, options: TPosMatchOptions): Promise<TPosMatchResult> {
  const ids = await dueReportIds(tx, now, options);
  const result: TPosMatchResult = { checked: ids.length, matched: 0, amountMismatch: 0, missing: 0, pending: 0 };
  if (ids.length === 0) return result;
  // In server-received order: the first reporter keeps a payment, whatever occurredAt the later one claims.
  const reports = await tx.posTransactionReport.findMany({
    where: { id: { in: ids } },
    orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
  });

  const byTenant = new Map<string, PosTransactionReport[]>();
  for (const report of reports) byTenant.set(report.tenantId, [...(byTenant.get(report.tenantId) ?? []), report]);
  const candidatesByTenant = new Map<string, TCandidate[]>();
  for (const [tenantId, tenantReports] of byTenant)
    candidatesByTenant.set(tenantId, await candidatesFor(tx, tenantReports));
  const owners = await terminalOwners(tx, [...candidatesByTenant.values()].flat());
  const byIdentity = new Map<string, TCandidate[]>();
  for (const [tenantId, candidates] of candidatesByTenant) {
    for (const candidate of candidates) {
      // Knowing a sale's ids is not enough: a payment on a terminal another tenant claims is never this tenant's.
      const owner = candidate.terminalId === null ? undefined : owners.get(candidate.terminalId);
      if (owner !== undefined && owner !== tenantId) continue;
      const key = identityKey(tenantId, candidate.authorizationNumber!, candidate.hostUsn!, candidate.gatewayUsn!);
      byIdentity.set(key, [...(byIdentity.get(key) ?? []), candidate]);
    }
  }
  const holders = new Map(
    (
      await tx.posTransactionReport.findMany({
        where: { cardPaymentId: { in: [...byIdentity.values()].flat().map((candidate) => candidate.id) } },
        select: { cardPaymentId: true, id: true },
      })
    ).map((row) => [row.cardPaymentId!, row.id]),
  );

  for (const report of reports) {
    const same =
      byIdentity.get(identityKey(report.tenantId, report.authorizationCode, report.nsuHost, report.nsuGateway)) ?? [];
    // Prefer a free payment of the same amount; never one another report already holds.
    const free = same.filter((candidate) => (holders.get(candidate.id) ?? report.id) === report.id);
    const candidate = free.find((item) => item.amountCents === report.amountCents) ?? free[0];
    const status = decideMatch(report, candidate, now);
    const cardPaymentId = status === "MATCHED" || status === "AMOUNT_MISMATCH" ? candidate!.id : null;
    if (cardPaymentId) holders.set(cardPaymentId, report.id);
    if (report.cardPaymentId && report.cardPaymentId !== cardPaymentId) holders.delete(report.cardPaymentId);
    const missingPasses = status === "MISSING_AT_GATEWAY" ? report.missingPasses + 1 : 0;
    const nextMatchAt = status === "MISSING_AT_GATEWAY" ? nextMissingTry(missingPasses, now) : null;
    if (
      status !== report.matchStatus ||
      cardPaymentId !== report.cardPaymentId ||
      missingPasses !== report.missingPasses ||
      nextMatchAt?.getTime() !== report.nextMatchAt?.getTime()
    ) {
      await tx.posTransactionReport.update({
        where: { id: report.id },
        data: {
          matchStatus: status,
          cardPaymentId,
          matchedAt: status === "PENDING" ? null : now,
          missingPasses,
          nextMatchAt,
        },
      });
      if (status !== report.matchStatus || cardPaymentId !== report.cardPaymentId)
        await publishChange({ kind: "pos_sale", id: report.id }, tx);
    }
    if (status === "MATCHED") result.matched += 1;
    else if (status === "AMOUNT_MISMATCH") result.amountMismatch += 1;
    else if (status === "MISSING_AT_GATEWAY") result.missing += 1;
    else result.pending += 1;
  }
  return result;
}

async function candidatesFor(tx: TTransactionClient, reports: PosTransactionReport[]): Promise<TCandidate[]> {
  const authorizationNumbers = [...new Set(reports.map((report) => report.authorizationCode))];
  return tx.cardPayment.findMany({
    where: {
      isApproved: true,
      authorizationNumber: { in: authorizationNumbers },
      hostUsn: { not: null },
      gatewayUsn: { not: null },
      NOT: { id: { in: await heldByOtherTenants(tx, reports[0]!.tenantId, authorizationNumbers) } },
    },
    select: {
      id: true,
      amountCents: true,
      authorizationNumber: true,
      hostUsn: true,
      gatewayUsn: true,
      terminalId: true,
    },
  });
}

async function terminalOwners(tx: TTransactionClient, candidates: TCandidate[]): Promise<Map<string, string>> {
  const terminalIds = [...new Set(candidates.flatMap((candidate) => candidate.terminalId ?? []))];
  if (terminalIds.length === 0) return new Map();
  const claimed = await tx.posTenantTerminal.findMany({
    where: { terminalId: { in: terminalIds } },
    select: { terminalId: true, tenantId: true },
  });
  return new Map(claimed.map((row) => [row.terminalId, row.tenantId]));
}

async function heldByOtherTenants(
  tx: TTransactionClient,
  tenantId: string,
  authorizationNumbers: string[],
): Promise<string[]> {
  const held = await tx.posTransactionReport.findMany({
    where: {
      tenantId: { not: tenantId },
      cardPaymentId: { not: null },
      authorizationCode: { in: authorizationNumbers },
    },
    select: { cardPaymentId: true },
  });
  return held.map((row) => row.cardPaymentId!);
}

export type TUnreportedCardPayment = Pick<
  CardPayment,
  "id" | "amountCents" | "occurredAt" | "brandCode" | "origin" | "authorizationNumber" | "hostUsn" | "gatewayUsn"
>;

export async function findUnreportedCardPayments(
  bounds: { gte?: Date; lt?: Date },
  take = 200,
): Promise<TUnreportedCardPayment[]> {
  const payments = await db.cardPayment.findMany({
    where: { origin: { in: ["POS", "GATEWAY"] }, isApproved: true, occurredAt: bounds },
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      amountCents: true,
      occurredAt: true,
      brandCode: true,
      origin: true,
      authorizationNumber: true,
      hostUsn: true,
      gatewayUsn: true,
    },
    take: 2_000,
  });
  if (payments.length === 0) return [];
  const reported = new Set(
    (
      await db.posTransactionReport.findMany({
        where: { cardPaymentId: { in: payments.map((payment) => payment.id) } },
        select: { cardPaymentId: true },
      })
    ).map((row) => row.cardPaymentId),
  );
  return payments.filter((payment) => !reported.has(payment.id)).slice(0, take);
}
