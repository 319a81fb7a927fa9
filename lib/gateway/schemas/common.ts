import { z } from "zod";
import { isExactAmount } from "@/lib/shared/money";

// ISO 8601 date-time as upstream writes it (with an offset, e.g. -03:00); a zone-less one is
// accepted too. Kept as the string: the domain layer turns it into a Date.
export const ZDateTime = z.iso.datetime({ offset: true, local: true });

// Fields the spec types as string but upstream leaves out or sends as null when not given at
// creation (description, userReference): always `string | null` for the callers.
export const ZOptionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

// A query date-time: ISO 8601, with or without a zone (without one it is read as Brasília time).
export const ZQueryDateTime = z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()]);

export const ZSort = z.union([z.string().regex(/^\w+,(asc|desc)$/i), z.array(z.string().regex(/^\w+,(asc|desc)$/i))]);

// 2.10 paging parameters shared by every paged list.
export const ZPageQuery = z.object({
  page: z.number().int().min(0).optional(),
  size: z.number().int().min(1).optional(),
  sort: ZSort.optional(),
});

// A request amount in currency units (the wire unit): positive, at most two decimals.
export const ZWireAmount = z.number().min(0.01).refine(isExactAmount, "at most two decimals");
