import { z } from "zod";
import { isExactAmount } from "@/lib/shared/money";

// Upstream writes an offset (e.g. -03:00); a zone-less value is accepted too. The domain layer makes the Date.
export const ZDateTime = z.iso.datetime({ offset: true, local: true });

// Typed string in the spec, but left out or null when not given at creation: always `string | null` for callers.
export const ZOptionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

// Without a zone, upstream reads it as Brasília time.
export const ZQueryDateTime = z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()]);

const ZSort = z.union([z.string().regex(/^\w+,(asc|desc)$/i), z.array(z.string().regex(/^\w+,(asc|desc)$/i))]);

export const ZPageQuery = z.object({
  page: z.number().int().min(0).optional(),
  size: z.number().int().min(1).optional(),
  sort: ZSort.optional(),
});

export const ZWireAmount = z.number().min(0.01).refine(isExactAmount, "at most two decimals");
