import { createLoader, createSerializer } from "nuqs/server";

import { ZCustomerFilters } from "@/lib/customers/schemas";
import { createListParsers } from "@/lib/list/search-params";

// /customers?q&sort&order&page, on the server and in the filter form.
export const customerSearchParams = createListParsers(ZCustomerFilters.shape);
export const loadCustomerSearchParams = createLoader(customerSearchParams);
export const serializeCustomerSearchParams = createSerializer(customerSearchParams);
