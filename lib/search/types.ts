// Pure types and constants, safe for client components. Money is integer cents; dates are ISO 8601 strings.
import { resourceSearchKinds } from "@/lib/resources/registry";

// Registry order, then customers (a rollup of payers, not a mirrored resource).
export const searchKinds = [...resourceSearchKinds, "customers"] as const;
export type TSearchKind = (typeof searchKinds)[number];

export type TSearchHit = {
  id: string;
  title: string;
  detail: string | null;
  amountCents: number | null;
  status: string | null;
  date: string | null;
  href: string;
};

type TSearchGroup = { kind: TSearchKind; hits: TSearchHit[] };

export type TSearchResult = { query: string; groups: TSearchGroup[] };
