import { z } from "zod";
import { cardStatuses } from "@/lib/gateway/schemas/card";
import { ZOptionalFilterText, ZOrder, ZPage, ZSort } from "@/lib/list/schemas";
import {
  BANDEIRA_CARTAO_BY_BRAND,
  detectCardBrand,
  isCardExpiryFormat,
  isCardExpiryValid,
  passesLuhn,
} from "@/lib/shared/card";

// Error messages are `cards.errors` keys; the same schemas validate the forms in the browser.

export const cardTokenStatuses = cardStatuses;
export type TCardTokenStatus = (typeof cardTokenStatuses)[number];

export const brandCodes = Object.values(BANDEIRA_CARTAO_BY_BRAND) as [string, ...string[]];

// Spaces and dashes as people type them; what reaches the gateway is digits only.
export const ZCardNumber = z
  .string({ error: "numberRequired" })
  .transform((value) => value.replace(/[\s-]/g, ""))
  .pipe(
    z
      .string()
      .min(1, { error: "numberRequired" })
      .regex(/^\d{12,19}$/, { error: "invalidNumber" })
      .refine(passesLuhn, { error: "invalidNumber" })
      .refine((value) => detectCardBrand(value) !== null, { error: "unknownBrand" }),
  );

export const ZCardExpiry = z
  .string({ error: "expiryRequired" })
  .trim()
  .min(1, { error: "expiryRequired" })
  .refine(isCardExpiryFormat, { error: "invalidExpiry" })
  .refine((value) => isCardExpiryValid(value), { error: "cardExpired" });

// The gateway's `clientId` of a saved card (shown as the card's customer id); its limits are "not shown".
export const ZCustomerId = z
  .string()
  .trim()
  .max(100, { error: "customerIdTooLong" })
  .regex(/^[\w.@:-]*$/, { error: "invalidCustomerId" })
  .transform((value) => value || undefined)
  .optional();

export const ZAddCardInput = z.object({ number: ZCardNumber, expiry: ZCardExpiry, customerId: ZCustomerId });
export type TAddCard = z.output<typeof ZAddCardInput>;

export const ZCardTokenValue = z
  .string({ error: "tokenRequired" })
  .trim()
  .min(1, { error: "tokenRequired" })
  .max(200, { error: "invalidToken" })
  .regex(/^[\w.~-]+$/, { error: "invalidToken" });

export const ZSetCardTokenStatusInput = z.object({ token: ZCardTokenValue });

// A token, or a card id (a UUID, spec 4.2 "read card by id").
export const ZLookUpCardTokenInput = z.object({ query: ZCardTokenValue });

// `page` counts from 0, as the upstream list does; the caller loops while `page + 1 < totalPages`.
export const ZRefreshCardTokensPageInput = z.object({ page: z.number().int().min(0).max(10_000) });

const cardTokenSortColumns = ["createdAt", "modifiedAt", "status", "brand", "lastFour"] as const;

export const ZCardTokenFilters = z.object({
  status: z.enum(cardTokenStatuses).optional().catch(undefined),
  brand: z.enum(brandCodes).optional().catch(undefined),
  lastFour: z
    .string()
    .trim()
    .regex(/^\d{4}$/)
    .optional()
    .catch(undefined),
  customerId: ZOptionalFilterText(100),
  token: ZOptionalFilterText(200),
  sort: ZSort(cardTokenSortColumns),
  order: ZOrder,
  page: ZPage,
});
export type TCardTokenFilters = z.output<typeof ZCardTokenFilters>;
