import "server-only";

import type { TRole } from "@/lib/auth/session-user";
import type { TSqlRunner } from "@/lib/db/sql";

import type { TSearchTerms } from "./schemas";
import type { TSearchHit } from "./types";

export type TFoundRow = Omit<TSearchHit, "href">;

export type TSearchKindEntry = {
  // Hidden from STAFF, in the route handler and in the result.
  isAdminOnly: boolean;
  // Found rows, newest first, at most `limit`; an empty list when the terms cannot match this kind. A payer's CPF/CNPJ
  // in a hit is as `role` may see it (lib/security/personal-data.ts).
  find: (terms: TSearchTerms, limit: number, run: TSqlRunner, role: TRole) => Promise<TFoundRow[]>;
  href: (id: string) => string;
};

export const isoUtc = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const foldedPrefix = (column: string, param: string) =>
  `search_fold(${column}) LIKE search_fold(${param}) || '%'`;

// Each kind ORs only the conditions its terms allow, every one on an indexed column (or name expression index),
// so PostgreSQL combines index scans; the statement text is one of a few shapes.
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
