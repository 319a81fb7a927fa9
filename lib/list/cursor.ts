import type { TSortOrder } from "./schemas";

// Keyset (cursor) paging for deep pages (docs/lists.md): the URL carries an opaque cursor naming the row a page
// starts after (or ends before), so page 4,000 costs what page 1 costs instead of reading 80,000 rows to skip them.

export type TCursorValue = string | number | Date;

export type TCursor = {
  /** "after": the rows that follow this row in the list's order; "before": the rows that precede it. */
  direction: "after" | "before";
  /** The sort the cursor was made for: under another sort it means nothing and is ignored. */
  sort: string;
  order: TSortOrder;
  value: TCursorValue;
  /** The row's unique tie-breaker (txid, id). */
  id: string;
};

type TEncodedValue = string | number | { d: string };

const maxCursorLength = 500;

export function encodeCursor(cursor: TCursor): string {
  const value: TEncodedValue = cursor.value instanceof Date ? { d: cursor.value.toISOString() } : cursor.value;
  const json = JSON.stringify([cursor.direction === "after" ? "a" : "b", cursor.sort, cursor.order, value, cursor.id]);
  return Buffer.from(json, "utf8").toString("base64url");
}

function decodeValue(value: unknown): TCursorValue | null {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value && typeof value === "object" && "d" in value && typeof value.d === "string") {
    const date = new Date(value.d);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return null;
}

/** A cursor from the URL, or null when it is absent, hand-edited or made for another sort (the first page then). */
export function decodeCursor(text: string | undefined, sort: string, order: TSortOrder): TCursor | null {
  if (!text || text.length > maxCursorLength) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) return null;
  const [direction, cursorSort, cursorOrder, rawValue, id] = parsed as unknown[];
  const value = decodeValue(rawValue);
  if ((direction !== "a" && direction !== "b") || cursorSort !== sort || cursorOrder !== order) return null;
  if (value === null || typeof id !== "string" || !id) return null;
  return { direction: direction === "a" ? "after" : "before", sort, order, value, id };
}

/**
 * The rows past the cursor in the order the query reads them, as a Prisma `where`: with `order` desc and
 * "after", `(field, id) < (value, cursorId)`. The redundant `field <= value` lets PostgreSQL start the index range
 * at the cursor instead of filtering every row before it.
 */
export function keysetWhere(
  field: string,
  tieBreaker: string,
  readOrder: TSortOrder,
  cursor: Pick<TCursor, "value" | "id">,
) {
  const strict = readOrder === "desc" ? "lt" : "gt";
  const inclusive = readOrder === "desc" ? "lte" : "gte";
  return {
    AND: [
      { [field]: { [inclusive]: cursor.value } },
      { OR: [{ [field]: { [strict]: cursor.value } }, { [tieBreaker]: { [strict]: cursor.id } }] },
    ],
  };
}

export function reverseOrder(order: TSortOrder): TSortOrder {
  return order === "asc" ? "desc" : "asc";
}
