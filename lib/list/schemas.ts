import { z } from "zod";
import { parseBRLToCents } from "@/lib/format/money";

// Each URL field falls back on its own (`.catch`): a hand-edited or stale link drops that filter, never errors.

/** A São Paulo calendar day, `YYYY-MM-DD`, in action inputs (an invalid one is an error). */
export const ZDay = z.iso.date({ error: "invalidDate" });

export const ZOptionalDay = z.iso.date().optional().catch(undefined);

export const ZOptionalFilterText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional()
    .catch(undefined);

export const sortOrders = ["asc", "desc"] as const;
export type TSortOrder = (typeof sortOrders)[number];

export const ZOrder = z.enum(sortOrders).catch("desc").default("desc");

export const ZSort = <const TColumn extends string>(columns: readonly [TColumn, ...TColumn[]]) =>
  z.enum(columns).catch(columns[0]).default(columns[0]);

// An opaque keyset cursor (lib/list/cursor.ts); one that does not decode reads as the first page.
export const ZCursor = z.string().max(500).optional().catch(undefined);

export const ZPage = z.coerce.number().int().min(1).max(100_000).catch(1).default(1);

// An amount filter typed in reais ("123,45", "123.45", "1.234,56"), either locale's way: the output is cents.
export const ZOptionalAmountReais = z
  .string()
  .trim()
  .max(20)
  .transform((text, context) => {
    if (!text) return undefined;
    const cents = parseBRLToCents(text, "pt-BR") ?? parseBRLToCents(text, "en");
    if (cents === null) {
      context.addIssue({ code: "custom", message: "invalidAmount" });
      return z.NEVER;
    }
    return cents;
  })
  .optional()
  .catch(undefined);
