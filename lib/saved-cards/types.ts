// Pure types, safe for client components. Dates are ISO 8601 strings; only BIN and last four of a card are known.

import type { TCardBrand } from "@/lib/shared/card";

export type TCardTokenRow = {
  token: string;
  /** The gateway's card id ("read card by id"); null when no answer carried it. */
  gatewayId: string | null;
  /** ATV active, INA inactive (spec 3.2); another value is shown as sent. */
  status: string;
  brandCode: string;
  brand: TCardBrand | null;
  bin: string;
  lastFour: string;
  /** MM/YY */
  expiry: string;
  isExpired: boolean;
  customerId: string | null;
  createdAt: string | null;
  modifiedAt: string | null;
};

/** A duplicate names the saved card when the mirror or the gateway's list shows which one it is. */
export type TAddCardResult = { status: "created"; token: string } | { status: "duplicate"; token: string | null };

/** "unchanged": the card was already in the asked state (409); `card` is its state read again. */
export type TSetCardTokenStatusResult = { status: "changed" | "unchanged"; card: TCardTokenRow };

export type TCardTokenLookupResult = { token: string; source: "gateway" | "mirror" };

export type TRefreshCardTokensPageResult = { page: number; totalPages: number; upserted: number };
