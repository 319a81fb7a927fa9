import { decodeCursor, encodeCursor, keysetWhere, reverseOrder, type TCursorValue } from "./cursor";
import type { TSortOrder } from "./schemas";

/** Lists that page by cursor count up to this many rows and say "more than 10,000" above it (docs/lists.md). */
export const listCountCap = 10_000;
/** Lists that page by cursor number their pages over this many rows (OFFSET stays small), then go on by cursor. */
export const listNumberedRows = 1_000;

export type TListPage<TRow> = {
  rows: TRow[];
  /** Exact, or `listCountCap + 1` when `isTotalCapped`. */
  total: number;
  /** More than `listCountCap` rows match: `total` and `totalCents` are not exact (`totalCents` is then absent). */
  isTotalCapped?: boolean;
  /** 1-based; 0 on a page reached by cursor, whose number is not known. */
  page: number;
  pageSize: number;
  pageCount: number;
  hasMorePages?: boolean;
  /** The sum of the list's amount over every row the filters select (not only this page), when it has one. */
  totalCents?: number;
  cursors?: { previous: string | null; next: string | null };
};

type TListAggregate<TField extends string> = {
  _count: { _all: number };
  _sum: { [K in TField]: number | null };
};

// `take` bounds the count: PostgreSQL then stops after that many rows.
type TListTotals<TField extends string> =
  | { count: (take: number) => Promise<number> }
  | { sumField: TField; aggregate: (take: number) => Promise<TListAggregate<TField>> };

async function listTotals<TField extends string>(
  query: TListTotals<TField>,
  isCapped = true,
): Promise<{ total: number; isTotalCapped: boolean; totalCents?: number }> {
  const take = listCountCap + 1;
  if ("count" in query) {
    const total = await query.count(take);
    return { total, isTotalCapped: isCapped && total > listCountCap };
  }
  const { _count, _sum } = await query.aggregate(take);
  const isTotalCapped = isCapped && _count._all > listCountCap;
  return {
    total: _count._all,
    isTotalCapped,
    ...(isTotalCapped ? {} : { totalCents: _sum[query.sumField] ?? 0 }),
  };
}

export type TListKeyset = { where: Record<string, unknown>; order: TSortOrder };

type TListKeysetSpec<TRow> = {
  sort: string;
  order: TSortOrder;
  field: string;
  tieBreaker: string;
  cursorOf: (row: TRow) => [TCursorValue, string];
};

type TListQuery<TRow, TField extends string> = TListTotals<TField> & {
  /** `keyset` is null on a numbered page: read `skip`/`take` in the list's own order. */
  findMany: (window: { skip: number; take: number }, keyset: TListKeyset | null) => Promise<TRow[]>;
  keyset?: TListKeysetSpec<TRow>;
};

function cursorsOf<TRow>(
  spec: TListKeysetSpec<TRow>,
  rows: TRow[],
  hasBefore: boolean,
  hasAfter: boolean,
): { previous: string | null; next: string | null } {
  const make = (direction: "after" | "before", row: TRow | undefined) => {
    if (!row) return null;
    const [value, id] = spec.cursorOf(row);
    return encodeCursor({ direction, sort: spec.sort, order: spec.order, value, id });
  };
  return { previous: hasBefore ? make("before", rows[0]) : null, next: hasAfter ? make("after", rows.at(-1)) : null };
}

/** One page and its totals; with `sumField` the count and total come from one aggregate over the rows' `where`. */
export async function findListPage<TRow, TField extends string = never>(
  request: { page: number; pageSize: number; cursor?: string },
  query: TListQuery<TRow, TField>,
): Promise<TListPage<TRow>> {
  const { pageSize } = request;
  const spec = query.keyset;
  const cursor = spec ? decodeCursor(request.cursor, spec.sort, spec.order) : null;
  const maxPage = spec ? Math.max(1, Math.floor(listNumberedRows / pageSize)) : Number.POSITIVE_INFINITY;
  const page = Math.min(request.page, maxPage);
  const totalsPromise = listTotals(query, spec !== undefined);

  if (spec && cursor) {
    const readOrder = cursor.direction === "after" ? spec.order : reverseOrder(spec.order);
    const where = keysetWhere(spec.field, spec.tieBreaker, readOrder, cursor);
    const read = await query.findMany({ skip: 0, take: pageSize + 1 }, { where, order: readOrder });
    const hasMore = read.length > pageSize;
    const slice = read.slice(0, pageSize);
    // Back at the start (fewer rows than a page before the cursor): the first numbered page instead.
    if (cursor.direction === "before" && !hasMore) {
      totalsPromise.catch(() => undefined);
      return findListPage({ page: 1, pageSize }, query);
    }
    const rows = cursor.direction === "after" ? slice : slice.reverse();
    const totals = await totalsPromise;
    return {
      rows,
      ...totals,
      page: 0,
      pageSize,
      pageCount: pageCountOf(totals.total, pageSize, maxPage),
      hasMorePages: totals.total > maxPage * pageSize,
      cursors:
        cursor.direction === "after" ? cursorsOf(spec, rows, true, hasMore) : cursorsOf(spec, rows, hasMore, true),
    };
  }

  const [totals, read] = await Promise.all([
    totalsPromise,
    query.findMany({ skip: (page - 1) * pageSize, take: spec ? pageSize + 1 : pageSize }, null),
  ]);
  const rows = read.slice(0, pageSize);
  return {
    rows,
    ...totals,
    page,
    pageSize,
    pageCount: pageCountOf(totals.total, pageSize, maxPage),
    ...(spec
      ? {
          hasMorePages: totals.total > maxPage * pageSize,
          cursors: cursorsOf(spec, rows, false, read.length > pageSize),
        }
      : {}),
  };
}

function pageCountOf(total: number, pageSize: number, maxPage: number): number {
  return Math.min(maxPage, Math.max(1, Math.ceil(total / pageSize)));
}

// The unique tie-breaker keeps rows with equal values in place from one page to the next.
export function orderByThen<TField extends string, TTieBreaker extends string>(
  field: TField,
  tieBreaker: TTieBreaker,
  order: TSortOrder,
): [Record<TField, TSortOrder>, Record<TTieBreaker, TSortOrder>] {
  return [{ [field]: order } as Record<TField, TSortOrder>, { [tieBreaker]: order } as Record<TTieBreaker, TSortOrder>];
}
