import type { TSortOrder } from "./schemas";

export type TListPage<TRow> = { rows: TRow[]; total: number; page: number; pageSize: number; pageCount: number };

export async function findListPage<TRow>(
  { page, pageSize }: { page: number; pageSize: number },
  query: { count: () => Promise<number>; findMany: (window: { skip: number; take: number }) => Promise<TRow[]> },
): Promise<TListPage<TRow>> {
  const [total, rows] = await Promise.all([
    query.count(),
    query.findMany({ skip: (page - 1) * pageSize, take: pageSize }),
  ]);
  return { rows, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

// The unique tie-breaker keeps rows with equal values in place from one page to the next.
export function orderByThen<TField extends string, TTieBreaker extends string>(
  field: TField,
  tieBreaker: TTieBreaker,
  order: TSortOrder,
): [Record<TField, TSortOrder>, Record<TTieBreaker, TSortOrder>] {
  return [{ [field]: order } as Record<TField, TSortOrder>, { [tieBreaker]: order } as Record<TTieBreaker, TSortOrder>];
}
