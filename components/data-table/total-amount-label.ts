import "server-only";
import { getLocale, getTranslations } from "next-intl/server";

import { formatBRL } from "@/lib/format/money";
import type { TLocale } from "@/lib/i18n/config";

/**
 * "Total amount: R$ 1.234,56" for a list page's `totalCents` (lib/list/query.ts), on the server; above the count
 * cap there is no exact total, and the label says how to get one.
 */
export async function totalAmountLabel(
  totalCents: number | undefined,
  isTotalCapped = false,
): Promise<string | undefined> {
  if (totalCents === undefined && !isTotalCapped) return undefined;
  const [t, locale] = await Promise.all([getTranslations("common.table"), getLocale() as Promise<TLocale>]);
  if (totalCents === undefined) return t("totalAmountCapped");
  return t("totalAmount", { amount: formatBRL(totalCents, locale) });
}
