import type { TSortOrder } from "./schemas";

export type TListPage<TRow> = {
  rows: TRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  /** The sum of the list's amount over every row the filters select (not only this page), when it has one. */
  totalCents?: number;
};

/** Prisma's `aggregate({ where, _count: { _all: true }, _sum: { [sumField]: true } })`: one SQL query. */
export type TListAggregate<TField extends string> = {
  _count: { _all: number };
  _sum: { [K in TField]: number | null };
};

type TListTotals<TField extends string> =
  | { count: () => Promise<number> }
  | { sumField: TField; aggregate: () => Promise<TListAggregate<TField>> };

async function listTotals<TField extends string>(
  query: TListTotals<TField>,
): Promise<{ total: number; totalCents?: number }> {
  if ("count" in query) return { total: await query.count() };
  const { _count, _sum } = await query.aggregate();
  return { total: _count._all, totalCents: _sum[query.sumField] ?? 0 };
}

// A list with an amount passes `sumField` + `aggregate` instead of `count`: the count and the total come from
// one aggregate over the same `where` as the rows.
export async function findListPage<TRow, TField extends string = never>(
  { page, pageSize }: { page: number; pageSize: number },
  query: TListTotals<TField> & { findMany: (window: { skip: number; take: number }) => Promise<TRow[]> },
): Promise<TListPage<TRow>> {
  const [totals, rows] = await Promise.all([
    listTotals(query),
    query.findMany({ skip: (page - 1) * pageSize, take: pageSize }),
  ]);
  return { rows, ...totals, page, pageSize, pageCount: Math.max(1, Math.ceil(totals.total / pageSize)) };
}

// The unique tie-breaker keeps rows with equal values in place from one page to the next.
export function orderByThen<TField extends string, TTieBreaker extends string>(
  field: TField,
  tieBreaker: TTieBreaker,
  order: TSortOrder,
): [Record<TField, TSortOrder>, Record<TTieBreaker, TSortOrder>] {
  return [{ [field]: order } as Record<TField, TSortOrder>, { [tieBreaker]: order } as Record<TTieBreaker, TSortOrder>];
}
