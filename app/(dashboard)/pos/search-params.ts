import { createLoader, createSerializer } from "nuqs/server";
import { createListParsers, parseAsAmountCents } from "@/lib/list/search-params";
import { ZPosSalesFilters, ZPosSellerFilters } from "@/lib/pos/admin-schemas";

// /pos/sellers?q&status&page and /pos/sales?from&to&sellerId&posId&approved&brand&network&minAmount&maxAmount&match&page
export const posSellerSearchParams = createListParsers(ZPosSellerFilters.shape);
export const loadPosSellerSearchParams = createLoader(posSellerSearchParams);
export const serializePosSellerSearchParams = createSerializer(posSellerSearchParams);

// Amounts are reais in the URL, cents once read.
export const posSalesSearchParams = {
  ...createListParsers(ZPosSalesFilters.shape),
  minAmount: parseAsAmountCents(ZPosSalesFilters.shape.minAmount),
  maxAmount: parseAsAmountCents(ZPosSalesFilters.shape.maxAmount),
};
export const loadPosSalesSearchParams = createLoader(posSalesSearchParams);
export const serializePosSalesSearchParams = createSerializer(posSalesSearchParams);
