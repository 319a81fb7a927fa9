import { createLoader, createSerializer } from "nuqs/server";
import { createListParsers } from "@/lib/list/search-params";
import { ZCardTokenFilters } from "@/lib/saved-cards/schemas";

// /cards?status&brand&lastFour&customerId&token&sort&order&page: read by the page on the server, and by the filter
// form, the lookup box and the sort links in the browser.
export const cardTokenSearchParams = createListParsers(ZCardTokenFilters.shape);
export const loadCardTokenSearchParams = createLoader(cardTokenSearchParams);
export const serializeCardTokenSearchParams = createSerializer(cardTokenSearchParams);
