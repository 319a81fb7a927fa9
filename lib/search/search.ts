import "server-only";

import { can, type TPermissionHolder } from "@/lib/auth/permissions";
import { readSql } from "@/lib/db/read-replica";
import type { TSqlRunner } from "@/lib/db/sql";

import { searchKindRegistry } from "./kinds";
import { toSearchTerms } from "./schemas";
import { searchKinds, type TSearchKind, type TSearchResult } from "./types";

const searchGroupLimit = 5;

/** The kinds the viewer may search: the others are not even queried. */
function searchableKinds(viewer: TPermissionHolder): TSearchKind[] {
  return searchKinds.filter((kind) => can(viewer, searchKindRegistry[kind].permission));
}

export async function searchEverything(
  query: string,
  viewer: TPermissionHolder,
  { limit = searchGroupLimit, run: given }: { limit?: number; run?: TSqlRunner } = {},
): Promise<TSearchResult> {
  const run = given ?? (await readSql());
  const terms = toSearchTerms(query);
  const groups = await Promise.all(
    searchableKinds(viewer).map(async (kind) => {
      const entry = searchKindRegistry[kind];
      const rows = await entry.find(terms, limit, run, viewer);
      return { kind, hits: rows.map((row) => ({ ...row, href: entry.href(row.id) })) };
    }),
  );
  return { query: terms.text, groups: groups.filter((group) => group.hits.length > 0) };
}
