import "server-only";
import { db } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import type { CardPayment, PosReportConflict, PosTransactionReport, Prisma } from "@/lib/generated/prisma/client";
import { periodBounds, toSaoPauloDay } from "@/lib/list/period";
import { findListPage, type TListPage } from "@/lib/list/query";
import { posListPageSize, type TPosSalesFilters } from "./admin-schemas";

function posSalesWhere(filters: TPosSalesFilters): Prisma.PosTransactionReportWhereInput {
  return {
    occurredAt: filters.from || filters.to ? periodBounds(filters) : undefined,
    sellerId: filters.sellerId,
    posId: filters.posId,
    approved: filters.approved ? filters.approved === "yes" : undefined,
    cardBrand: filters.brand ? { equals: filters.brand, mode: "insensitive" } : undefined,
    acquirerNetwork: filters.network ? { equals: filters.network, mode: "insensitive" } : undefined,
    amountCents:
      filters.minAmount !== undefined || filters.maxAmount !== undefined
        ? { gte: filters.minAmount, lte: filters.maxAmount }
        : undefined,
    matchStatus: filters.match,
  };
}

export async function findPosSales(filters: TPosSalesFilters): Promise<TListPage<PosTransactionReport>> {
  const reader = await readDb();
  const where = posSalesWhere(filters);
  return findListPage(
    { page: filters.page, pageSize: posListPageSize },
    {
      count: () => reader.posTransactionReport.count({ where }),
      findMany: (window) =>
        reader.posTransactionReport.findMany({ where, orderBy: [{ occurredAt: "desc" }, { id: "desc" }], ...window }),
    },
  );
}

export type TPosSaleTotal = { key: string; count: number; approvedCount: number; approvedCents: number };
export type TPosSalesTotals = { byDay: TPosSaleTotal[]; byPos: TPosSaleTotal[]; all: TPosSaleTotal };

function add(map: Map<string, TPosSaleTotal>, key: string, row: { approved: boolean; amountCents: number }) {
  const total = map.get(key) ?? { key, count: 0, approvedCount: 0, approvedCents: 0 };
  total.count += 1;
  if (row.approved) {
    total.approvedCount += 1;
    total.approvedCents += row.amountCents;
  }
  map.set(key, total);
}

// Summed in memory: the screen's period is days to weeks of one merchant's sales.
export async function getPosSalesTotals(filters: TPosSalesFilters): Promise<TPosSalesTotals> {
  const rows = await db.posTransactionReport.findMany({
    where: posSalesWhere(filters),
    select: { occurredAt: true, posId: true, approved: true, amountCents: true },
    take: 100_000,
  });
  const byDay = new Map<string, TPosSaleTotal>();
  const byPos = new Map<string, TPosSaleTotal>();
  const all = new Map<string, TPosSaleTotal>();
  for (const row of rows) {
    add(byDay, toSaoPauloDay(row.occurredAt), row);
    add(byPos, row.posId, row);
    add(all, "all", row);
  }
  return {
    byDay: [...byDay.values()].sort((a, b) => b.key.localeCompare(a.key)),
    byPos: [...byPos.values()].sort((a, b) => b.approvedCents - a.approvedCents),
    all: all.get("all") ?? { key: "all", count: 0, approvedCount: 0, approvedCents: 0 },
  };
}

export type TPosSaleDetail = PosTransactionReport & {
  conflicts: PosReportConflict[];
  cardPayment: Pick<
    CardPayment,
    "id" | "amountCents" | "occurredAt" | "status" | "authorizationNumber" | "hostUsn" | "gatewayUsn" | "origin"
  > | null;
};

export async function getPosSale(id: string): Promise<TPosSaleDetail | null> {
  const report = await db.posTransactionReport.findUnique({
    where: { id },
    include: { conflicts: { orderBy: { receivedAt: "desc" } } },
  });
  if (!report) return null;
  const cardPayment = report.cardPaymentId
    ? await db.cardPayment.findUnique({
        where: { id: report.cardPaymentId },
        select: {
          id: true,
          amountCents: true,
          occurredAt: true,
          status: true,
          authorizationNumber: true,
          hostUsn: true,
          gatewayUsn: true,
          origin: true,
        },
      })
    : null;
  return { ...report, cardPayment };
}

export async function getPosOverview(): Promise<{
  activeKeys: number;
  sellers: number;
  devices: number;
  blocked: number;
  unmatched: number;
}> {
  const now = new Date();
  const [activeKeys, sellers, devices, blockedSellers, blockedDevices, unmatched] = await Promise.all([
    db.posApiKey.count({ where: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } }),
    db.posSeller.count(),
    db.posDevice.count(),
    db.posSeller.count({ where: { status: "BLOCKED" } }),
    db.posDevice.count({ where: { status: "BLOCKED" } }),
    db.posTransactionReport.count({ where: { matchStatus: { in: ["MISSING_AT_GATEWAY", "AMOUNT_MISMATCH"] } } }),
  ]);
  return { activeKeys, sellers, devices, blocked: blockedSellers + blockedDevices, unmatched };
}
