import { createLoader, createSerializer } from "nuqs/server";

import { ZPaymentLinkFilters } from "@/lib/links/schemas";
import { createListParsers } from "@/lib/list/search-params";

// /links?from&to&status&method&document&userReference&receipt&sort&order&page, on the server and in
// the filter form.
export const paymentLinkSearchParams = createListParsers(ZPaymentLinkFilters.shape);
export const loadPaymentLinkSearchParams = createLoader(paymentLinkSearchParams);
export const serializePaymentLinkSearchParams = createSerializer(paymentLinkSearchParams);
