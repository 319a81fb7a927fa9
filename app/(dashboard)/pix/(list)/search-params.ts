import { createLoader, createSerializer } from "nuqs/server";

import { createListParsers } from "@/lib/list/search-params";
import { ZPixChargeFilters } from "@/lib/pix/schemas";

// /pix?from&to&status&document&userReference&txid&sort&order&page&cursor: read by the page on the server,
// and by the filter form and sort links in the browser.
export const pixChargeSearchParams = createListParsers(ZPixChargeFilters.shape);
export const loadPixChargeSearchParams = createLoader(pixChargeSearchParams);
export const serializePixChargeSearchParams = createSerializer(pixChargeSearchParams);
