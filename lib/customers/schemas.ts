import { z } from "zod";

import { ZOptionalFilterText, ZOrder, ZPage, ZSort } from "@/lib/list/schemas";

const customerSortColumns = ["total", "count", "lastPaid"] as const;
export type TCustomerSortColumn = (typeof customerSortColumns)[number];

// /customers?q&sort&order&page: `q` is a document (punctuation allowed) or the start of a name.
export const ZCustomerFilters = z.object({
  q: ZOptionalFilterText(100),
  sort: ZSort(customerSortColumns),
  order: ZOrder,
  page: ZPage,
});
export type TCustomerFilters = z.output<typeof ZCustomerFilters>;

// The /customers/[document] segment: CPF or CNPJ digits, as the mirror stores them.
export const ZCustomerDocument = z.string().regex(/^(\d{11}|\d{14})$/);
