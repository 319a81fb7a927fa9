import "server-only";

import type { TRole } from "@/lib/auth/session";
import { runSql, type TSqlRunner } from "@/lib/db/sql";

import { searchKindRegistry } from "./kinds";
import { toSearchTerms } from "./schemas";
import { searchKinds, type TSearchKind, type TSearchResult } from "./types";

const searchGroupLimit = 5;

/** The kinds a role may search: admin-only kinds (saved cards) are not even queried for STAFF. */
function searchableKinds(role: TRole): TSearchKind[] {
  return searchKinds.filter((kind) => role === "ADMIN" || !searchKindRegistry[kind].isAdminOnly);
}

export async function searchEverything(
  query: string,
  role: TRole,
  { limit = searchGroupLimit, run = runSql }: { limit?: number; run?: TSqlRunner } = {},
): Promise<TSearchResult> {
  const terms = toSearchTerms(query);
  const groups = await Promise.all(
    searchableKinds(role).map(async (kind) => {
      const entry = searchKindRegistry[kind];
      const rows = await entry.find(terms, limit, run, role);
      return { kind, hits: rows.map((row) => ({ ...row, href: entry.href(row.id) })) };
    }),
  );
  return { query: terms.text, groups: groups.filter((group) => group.hits.length > 0) };
}
