import { createLoader, createSerializer } from "nuqs/server";
import { ZCardPaymentFilters } from "@/lib/card-payments/schemas";
import { createListParsers, parseAsAmountCents } from "@/lib/list/search-params";

// /payments?from&to&status&brand&type&minAmount&maxAmount&orderId&lastFour&sort&order&page: read by the page on the
// server, and by the filter form and sort links in the browser. Amounts are reais in the URL, cents once read.
export const cardPaymentSearchParams = {
  ...createListParsers(ZCardPaymentFilters.shape),
  minAmount: parseAsAmountCents(ZCardPaymentFilters.shape.minAmount),
  maxAmount: parseAsAmountCents(ZCardPaymentFilters.shape.maxAmount),
};
export const loadCardPaymentSearchParams = createLoader(cardPaymentSearchParams);
export const serializeCardPaymentSearchParams = createSerializer(cardPaymentSearchParams);
