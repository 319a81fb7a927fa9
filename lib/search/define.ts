import "server-only";

import type { TPermission, TPermissionHolder } from "@/lib/auth/permissions";
import type { TSqlRunner } from "@/lib/db/sql";

import type { TSearchTerms } from "./schemas";
import type { TSearchHit } from "./types";

export type TFoundRow = Omit<TSearchHit, "href">;

export type TSearchKindEntry = {
  // Not even queried for a person without it.
  permission: TPermission;
  // Newest first, at most `limit`; a CPF/CNPJ as the viewer may see it (lib/security/personal-data.ts).
  find: (terms: TSearchTerms, limit: number, run: TSqlRunner, viewer: TPermissionHolder) => Promise<TFoundRow[]>;
  href: (id: string) => string;
};

export const foldedPrefix = (column: string, param: string) =>
  `search_fold(${column}) LIKE search_fold(${param}) || '%'`;

// Only conditions on indexed columns, ORed, so PostgreSQL combines index scans; few statement shapes.
export async function findWhere(
  limit: number,
  run: TSqlRunner,
  build: (add: (value: string) => string) => string[],
  select: (where: string, limitParam: string) => string,
): Promise<TFoundRow[]> {
  const values: unknown[] = [];
  const add = (value: string) => {
    values.push(value);
    return `$${values.length}::text`;
  };
  const conditions = build(add);
  if (conditions.length === 0) return [];
  values.push(limit);
  return run<TFoundRow>(select(conditions.join(" OR "), `$${values.length}::int`), values);
}
