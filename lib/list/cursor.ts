import type { TSortOrder } from "./schemas";

// Keyset paging (docs/lists.md): an opaque cursor names the row a page starts after, so page 4,000 costs what page 1 does.

export type TCursorValue = string | number | Date;

export type TCursor = {
  direction: "after" | "before";
  /** The sort the cursor was made for: under another sort it means nothing and is ignored. */
  sort: string;
  order: TSortOrder;
  value: TCursorValue;
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

/** The redundant `field <= value` lets PostgreSQL start the index range at the cursor, not filter every row before it. */
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
