import "server-only";
import type { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import { AppError } from "@/lib/errors";
import type { PosDevice, PosSeller, Prisma } from "@/lib/generated/prisma/client";
import { findListPage, type TListPage } from "@/lib/list/query";
import { posListPageSize, type TPosSellerFilters, type ZPosStatusInput } from "./admin-schemas";

export type TPosSellerRow = PosSeller & { devices: PosDevice[]; lastReportAt: Date | null };

export async function findPosSellers(filters: TPosSellerFilters): Promise<TListPage<TPosSellerRow>> {
  const reader = await readDb();
  const q = filters.q;
  const where: Prisma.PosSellerWhereInput = {
    status: filters.status,
    OR: q
      ? [
          { id: { contains: q, mode: "insensitive" } },
          { reference: { contains: q, mode: "insensitive" } },
          { subEstablishmentRef: { contains: q, mode: "insensitive" } },
          { devices: { some: { posId: { contains: q, mode: "insensitive" } } } },
        ]
      : undefined,
  };
  return findListPage(
    { page: filters.page, pageSize: posListPageSize },
    {
      count: () => reader.posSeller.count({ where }),
      findMany: async (window) => {
        const sellers = await reader.posSeller.findMany({
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          include: { devices: { orderBy: { activatedAt: "asc" } } },
          ...window,
        });
        return sellers.map((seller) => ({
          ...seller,
          lastReportAt: latest(seller.devices.map((d) => d.lastReportAt)),
        }));
      },
    },
  );
}

function latest(dates: (Date | null)[]): Date | null {
  return dates.reduce<Date | null>((max, date) => (date && (!max || date > max) ? date : max), null);
}

export async function getPosSellerForAdmin(id: string): Promise<TPosSellerRow | null> {
  const seller = await db.posSeller.findUnique({
    where: { id },
    include: { devices: { orderBy: { activatedAt: "asc" } } },
  });
  return seller ? { ...seller, lastReportAt: latest(seller.devices.map((d) => d.lastReportAt)) } : null;
}

export async function setPosStatus(input: z.output<typeof ZPosStatusInput>, context: TChangeContext): Promise<void> {
  const status = input.isBlocked ? "BLOCKED" : "ACTIVE";
  const data = { status, blockedReason: input.isBlocked ? (input.reason ?? null) : null } as const;
  await inTransaction(async (tx) => {
    const current =
      input.kind === "seller"
        ? await tx.posSeller.findUnique({ where: { id: input.id }, select: { status: true } })
        : await tx.posDevice.findUnique({ where: { posId: input.id }, select: { status: true } });
    if (!current) throw new AppError("NOT_FOUND", "pos.errors.sellerOrPosNotFound");
    if (current.status === status)
      throw new AppError("CONFLICT", input.isBlocked ? "pos.errors.alreadyBlocked" : "pos.errors.notBlocked");
    if (input.kind === "seller") await tx.posSeller.update({ where: { id: input.id }, data });
    else await tx.posDevice.update({ where: { posId: input.id }, data });
    await recordAudit(
      {
        ...auditFieldsOf(context, input.kind === "seller" ? "pos_seller" : "pos_device", input.id),
        action: `pos_${input.kind}.${input.isBlocked ? "blocked" : "unblocked"}`,
        metadata: { reason: input.reason ?? null },
      },
      tx,
    );
  });
}
