import { z } from "zod";

// 2.10 page envelope of the card, payment, Pix charge and Pix refund lists.
export function ZPageOf<TItem extends z.ZodType>(item: TItem) {
  return z.object({
    content: z.array(item),
    number: z.number().int(),
    size: z.number().int(),
    numberOfElements: z.number().int(),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    first: z.boolean(),
    last: z.boolean(),
    empty: z.boolean(),
  });
}
