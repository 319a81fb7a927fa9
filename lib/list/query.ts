import type { TSortOrder } from "./schemas";

// The list queries' shared arithmetic: one page of rows, the total, and a stable order.

export type TListPage<TRow> = { rows: TRow[]; total: number; page: number; pageSize: number; pageCount: number };

/** Counts the matches and reads page `page` (from 1) of them, `pageSize` rows a page. */
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

/**
 * An `orderBy` that sorts by `field` and then by a unique `tieBreaker` in the same order, so rows
 * with equal values keep their place from one page to the next.
 */
export function orderByThen<TField extends string, TTieBreaker extends string>(
  field: TField,
  tieBreaker: TTieBreaker,
  order: TSortOrder,
): [Record<TField, TSortOrder>, Record<TTieBreaker, TSortOrder>] {
  return [{ [field]: order } as Record<TField, TSortOrder>, { [tieBreaker]: order } as Record<TTieBreaker, TSortOrder>];
}
