// Pure types and constants, safe for client components. Money is integer cents; dates are ISO 8601 strings.
import { resourceSearchKinds } from "@/lib/resources/registry";

// The palette's groups, in the order they are shown: the resources' in registry order, then customers (who are not a
// mirrored resource but a rollup of payers, lib/search/kinds.ts).
export const searchKinds = [...resourceSearchKinds, "customers"] as const;
export type TSearchKind = (typeof searchKinds)[number];

export type TSearchHit = {
  id: string;
  // What the row is called (a payer's name, an order id); `detail` adds a document, a txid, a card's last four.
  title: string;
  detail: string | null;
  amountCents: number | null;
  status: string | null;
  date: string | null;
  href: string;
};

type TSearchGroup = { kind: TSearchKind; hits: TSearchHit[] };

export type TSearchResult = { query: string; groups: TSearchGroup[] };
