import "server-only";

import { searchCustomers } from "@/lib/customers/customers";
import { customerSegmentFor } from "@/lib/customers/viewer";
import { resourceRegistry, type TResourceEntry } from "@/lib/resources/server-registry";
import { documentFor } from "@/lib/security/personal-data";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

import type { TSearchKindEntry } from "./define";
import type { TSearchKind } from "./types";

const customers: TSearchKindEntry = {
  permission: "payments.view",
  // The id is the page's path segment: the digits for admins, a sealed reference for STAFF (lib/customers/viewer.ts).
  href: (segment) => `/customers/${encodeURIComponent(segment)}`,
  find: async (terms, limit, run, viewer) =>
    (await searchCustomers(terms, limit, run)).map((row) => {
      const shown = documentFor(viewer, formatCpfOrCnpj(row.document));
      return {
        id: customerSegmentFor(viewer, row.document),
        title: row.name ?? shown,
        detail: shown,
        amountCents: null,
        status: null,
        date: row.lastPaidAt,
      };
    }),
};

export function searchEntriesOf(resources: readonly TResourceEntry[]): Map<string, TSearchKindEntry> {
  const entries = resources.flatMap(({ descriptor, search }) =>
    descriptor.searchKind && search ? [[descriptor.searchKind, search] as const] : [],
  );
  return new Map([...entries, ["customers", customers] as const]);
}

export const searchKindRegistry = Object.fromEntries(searchEntriesOf(resourceRegistry)) as Record<
  TSearchKind,
  TSearchKindEntry
>;
