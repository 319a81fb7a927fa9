import "server-only";
import { db, inTransaction, type TTransactionClient } from "@/lib/db/client";
import type { CardPayment, PosMatchStatus, PosTransactionReport } from "@/lib/generated/prisma/client";

// Reconciliation of POS sale reports against the gateway's card payments (the mirror, lib/payments/mirror.ts).
// The rule (docs/pos.md, "Reconciliation rule"):
// - Only approved reports are compared; a declined sale has nothing to find at the gateway and stays PENDING.
// - A card payment is the report's when all three ids agree: report.authorizationCode = authorizationNumber (the
//   gateway's `numeroAutorizacao`; its `codigoAutorizacao` is the authorizer's response code, "00" in the sandbox,
//   so it identifies nothing), nsuHost = hostUsn and nsuGateway = gatewayUsn.
// - Same ids and same amount → MATCHED; same ids, other amount → AMOUNT_MISMATCH; none → MISSING_AT_GATEWAY, once
//   the report is older than the grace period (the mirror may not have pulled the payment yet; until then PENDING).
// - A card payment belongs to at most one report. Reports are re-checked until MATCHED, so a late mirror heals them.

export const posMatchGraceMs = 15 * 60_000;
// Reports older than this and still unmatched are left as they are (the job would re-read them forever).
export const posMatchLookbackMs = 45 * 24 * 60 * 60_000;

export type TPosMatchResult = {
  checked: number;
  matched: number;
  amountMismatch: number;
  missing: number;
  pending: number;
};

type TCandidate = Pick<CardPayment, "id" | "amountCents" | "authorizationNumber" | "hostUsn" | "gatewayUsn">;

const identityKey = (authorization: string, nsuHost: string, nsuGateway: string) =>
  `${authorization}\u0000${nsuHost}\u0000${nsuGateway}`;

export function decideMatch(
  report: Pick<PosTransactionReport, "approved" | "amountCents" | "receivedAt">,
  candidate: Pick<CardPayment, "amountCents"> | undefined,
  now: Date,
): PosMatchStatus {
  if (!report.approved) return "PENDING";
  if (candidate) return candidate.amountCents === report.amountCents ? "MATCHED" : "AMOUNT_MISMATCH";
  return now.getTime() - report.receivedAt.getTime() < posMatchGraceMs ? "PENDING" : "MISSING_AT_GATEWAY";
}

/**
 * One matching pass over the reports not yet MATCHED. Passes take turns (a transaction advisory lock), so the job and
 * an admin's "match now" never hand one card payment to two reports.
 */
export function runPosMatching(now: Date = new Date()): Promise<TPosMatchResult> {
  return inTransaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${"pos-matching"}, 0))`;
    return matchPass(tx, now);
  });
}

async function matchPass(tx: TTransactionClient, now: Date): Promise<TPosMatchResult> {
  const reports = await tx.posTransactionReport.findMany({
    where: {
      matchStatus: { not: "MATCHED" },
      approved: true,
      occurredAt: { gte: new Date(now.getTime() - posMatchLookbackMs) },
    },
    orderBy: { occurredAt: "asc" },
    take: 5_000,
  });
  const result: TPosMatchResult = { checked: reports.length, matched: 0, amountMismatch: 0, missing: 0, pending: 0 };
  if (reports.length === 0) return result;

  const candidates: TCandidate[] = await tx.cardPayment.findMany({
    where: { authorizationNumber: { in: [...new Set(reports.map((report) => report.authorizationCode))] } },
    select: { id: true, amountCents: true, authorizationNumber: true, hostUsn: true, gatewayUsn: true },
  });
  const taken = new Set(
    (
      await tx.posTransactionReport.findMany({
        where: { cardPaymentId: { in: candidates.map((candidate) => candidate.id) } },
        select: { cardPaymentId: true, id: true },
      })
    ).map((row) => row.cardPaymentId),
  );
  const byIdentity = new Map<string, TCandidate[]>();
  for (const candidate of candidates) {
    if (!candidate.authorizationNumber || !candidate.hostUsn || !candidate.gatewayUsn) continue;
    const key = identityKey(candidate.authorizationNumber, candidate.hostUsn, candidate.gatewayUsn);
    byIdentity.set(key, [...(byIdentity.get(key) ?? []), candidate]);
  }

  for (const report of reports) {
    const same = byIdentity.get(identityKey(report.authorizationCode, report.nsuHost, report.nsuGateway)) ?? [];
    // Prefer a free payment of the same amount; never one another report already holds.
    const free = same.filter((candidate) => !taken.has(candidate.id) || report.cardPaymentId === candidate.id);
    const candidate = free.find((item) => item.amountCents === report.amountCents) ?? free[0];
    const status = decideMatch(report, candidate, now);
    const cardPaymentId = status === "MATCHED" || status === "AMOUNT_MISMATCH" ? candidate!.id : null;
    if (cardPaymentId) taken.add(cardPaymentId);
    if (status !== report.matchStatus || cardPaymentId !== report.cardPaymentId) {
      await tx.posTransactionReport.update({
        where: { id: report.id },
        data: { matchStatus: status, cardPaymentId, matchedAt: status === "PENDING" ? null : now },
      });
    }
    if (status === "MATCHED") result.matched += 1;
    else if (status === "AMOUNT_MISMATCH") result.amountMismatch += 1;
    else if (status === "MISSING_AT_GATEWAY") result.missing += 1;
    else result.pending += 1;
  }
  return result;
}

export type TUnreportedCardPayment = Pick<
  CardPayment,
  "id" | "amountCents" | "occurredAt" | "brandCode" | "origin" | "authorizationNumber" | "hostUsn" | "gatewayUsn"
>;

/**
 * "At the gateway, not reported": approved card payments of the period made by a POS (origin POS) or made
 * elsewhere and learnt from the gateway's list (origin GATEWAY), that no report holds.
 */
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
