import type { Prisma } from "@/lib/generated/prisma/client";

export type TMirrorClient = Prisma.TransactionClient;
export type TMirrorOutcome = "created" | "updated" | "unchanged" | "stale";

// jsonb does not keep key order, so compare JSON by content.
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function isSameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a !== null && typeof a === "object") return canonicalJson(a) === canonicalJson(b);
  return a === b;
}

export function changedFields<T extends Record<string, unknown>>(row: Record<string, unknown>, data: T): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([key, value]) => !isSameValue(row[key], value))) as Partial<T>;
}
