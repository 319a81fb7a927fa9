import "server-only";
import { db } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import type { CardPayment, Prisma } from "@/lib/generated/prisma/client";
import { defaultPeriod, periodBounds } from "@/lib/list/period";
import { findListPage, listCountCap, orderByThen, type TListPage } from "@/lib/list/query";
import { defineListSpec } from "@/lib/list/spec";
import { type TCardPaymentFilters, type TCardPaymentListStatus, ZCardPaymentFilters } from "./schemas";
import { cardPaymentStatuses, type TCardPaymentListRow } from "./types";
import { statusKindOf, type TCardPaymentStatusKind } from "./views";

/** Count and cents per status kind: an approved, a refused and a cancelled real are never added together. */
export type TCardPaymentTotals = Record<TCardPaymentStatusKind, { count: number; cents: number }>;

const cardPaymentPageSize = 20;

const sortFields: Record<TCardPaymentFilters["sort"], keyof CardPayment> = {
  date: "occurredAt",
  amount: "amountCents",
};

// The same reading as the badge (views.ts, statusKindOf): refused is told by `codigo` (isApproved) first.
const whereByStatus: Record<TCardPaymentListStatus, Prisma.CardPaymentWhereInput> = {
  approved: { status: cardPaymentStatuses.APPROVED, isApproved: true },
  cancelled: { status: cardPaymentStatuses.CANCELLED },
  refused: {
    status: { not: cardPaymentStatuses.CANCELLED },
    OR: [{ isApproved: false }, { status: cardPaymentStatuses.REFUSED }],
  },
};

const listColumns = {
  id: true,
  occurredAt: true,
  amountCents: true,
  cancelledCents: true,
  status: true,
  isApproved: true,
  paymentType: true,
  brandCode: true,
  cardLastFour: true,
  installmentCount: true,
  orderId: true,
  origin: true,
} satisfies Prisma.CardPaymentSelect;

function toCardPaymentListRow({
  isApproved,
  occurredAt,
  ...payment
}: Prisma.CardPaymentGetPayload<{ select: typeof listColumns }>): TCardPaymentListRow {
  return {
    ...payment,
    occurredAt: occurredAt.toISOString(),
    statusKind: statusKindOf({ status: payment.status, isApproved }),
  };
}

function cardPaymentListWhere(
  filters: Omit<TCardPaymentFilters, "sort" | "order" | "page" | "cursor">,
): Prisma.CardPaymentWhereInput {
  const fallback = defaultPeriod();
  const period = { from: filters.from ?? fallback.from, to: filters.to ?? fallback.to };
  return {
    occurredAt: periodBounds(period),
    ...(filters.status ? whereByStatus[filters.status] : {}),
    brandCode: filters.brand,
    paymentType: filters.type,
    amountCents:
      filters.minAmount !== undefined || filters.maxAmount !== undefined
        ? { gte: filters.minAmount, lte: filters.maxAmount }
        : undefined,
    orderId: filters.orderId,
    cardLastFour: filters.lastFour,
  };
}

export const cardPaymentList = defineListSpec({
  schema: ZCardPaymentFilters,
  where: cardPaymentListWhere,
  select: listColumns,
  field: "occurredAt",
  tieBreaker: "id",
});

// Grouped by what statusKindOf reads, so the totals classify rows exactly as the badges and the status filter do.
async function findCardPaymentTotals(where: Prisma.CardPaymentWhereInput): Promise<TCardPaymentTotals> {
  const totals: TCardPaymentTotals = {
    approved: { count: 0, cents: 0 },
    refused: { count: 0, cents: 0 },
    cancelled: { count: 0, cents: 0 },
    unknown: { count: 0, cents: 0 },
  };
  const groups = await db.cardPayment.groupBy({
    by: ["status", "isApproved"],
    where,
    _count: { _all: true },
    _sum: { amountCents: true },
  });
  for (const group of groups) {
    const total = totals[statusKindOf(group)];
    total.count += group._count._all;
    total.cents += group._sum.amountCents ?? 0;
  }
  return totals;
}

/** No single total amount: it would add refused payments to approved ones; `totals` per status kind instead. */
export async function findCardPayments(
  filters: TCardPaymentFilters,
  pageSize = cardPaymentPageSize,
): Promise<TListPage<TCardPaymentListRow> & { totals?: TCardPaymentTotals }> {
  const reader = await readDb();
  const where = cardPaymentListWhere(filters);
  const field = sortFields[filters.sort];
  const page = await findListPage(
    { page: filters.page, pageSize, cursor: filters.cursor },
    {
      // Along the period's index, so the count stops at `take` rows (Prisma orders a bounded count by the key).
      count: (take) => reader.cardPayment.count({ where, take, orderBy: { occurredAt: "desc" } }),
      findMany: async (window, keyset) =>
        (
          await reader.cardPayment.findMany({
            where: keyset ? { AND: [where, keyset.where as Prisma.CardPaymentWhereInput] } : where,
            select: listColumns,
            orderBy: orderByThen(field, "id", keyset?.order ?? filters.order),
            ...window,
          })
        ).map(toCardPaymentListRow),
      keyset: {
        sort: filters.sort,
        order: filters.order,
        field,
        tieBreaker: "id",
        cursorOf: (row) => [filters.sort === "amount" ? row.amountCents : new Date(row.occurredAt), row.id],
      },
    },
  );
  if (page.isTotalCapped || page.total > listCountCap) return page;
  return { ...page, totals: await findCardPaymentTotals(where) };
}
