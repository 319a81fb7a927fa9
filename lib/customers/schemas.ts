import { z } from "zod";

import { ZOptionalFilterText, ZOrder, ZPage, ZSort } from "@/lib/list/schemas";

const customerSortColumns = ["total", "count", "lastPaid"] as const;
export type TCustomerSortColumn = (typeof customerSortColumns)[number];

export const ZCustomerFilters = z.object({
  q: ZOptionalFilterText(100),
  sort: ZSort(customerSortColumns),
  order: ZOrder,
  page: ZPage,
});
export type TCustomerFilters = z.output<typeof ZCustomerFilters>;

export const ZCustomerDocument = z.string().regex(/^(\d{11}|\d{14})$/);
