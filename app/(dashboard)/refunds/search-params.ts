import { createLoader, createSerializer } from "nuqs/server";

import { createListParsers } from "@/lib/list/search-params";
import { ZPixRefundFilters } from "@/lib/pix/schemas";

// /refunds?from&to&txid&statusCode&sort&order&page, on the server and in the filter form.
export const pixRefundSearchParams = createListParsers(ZPixRefundFilters.shape);
export const loadPixRefundSearchParams = createLoader(pixRefundSearchParams);
export const serializePixRefundSearchParams = createSerializer(pixRefundSearchParams);
