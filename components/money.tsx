import { useLocale } from "next-intl";

import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import { cn } from "@/lib/utils";

type MoneyProps = {
  /** Integer cents. */
  cents: number;
  className?: string;
};

/** An amount in reais (`R$ 1.234,56`), in the UI locale's separators, aligned for columns. */
export function Money({ cents, className }: MoneyProps) {
  const locale = resolveLocale(useLocale());
  return <span className={cn("whitespace-nowrap tabular-nums", className)}>{formatBRL(cents, locale)}</span>;
}
