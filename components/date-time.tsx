import { useLocale } from "next-intl";

import { formatDate, formatDateTime, type TDateInput } from "@/lib/format/date-time";
import { resolveLocale } from "@/lib/i18n/config";
import { cn } from "@/lib/utils";

type DateTimeProps = {
  value: TDateInput;
  /** Show only the calendar day (still São Paulo's day). */
  isDateOnly?: boolean;
  className?: string;
};

/**
 * A moment shown in São Paulo time. Server and browser format it the same way (the zone is
 * fixed), so there is no hydration mismatch whatever zone the browser is in.
 */
export function DateTime({ value, isDateOnly = false, className }: DateTimeProps) {
  const locale = resolveLocale(useLocale());
  const date = value instanceof Date ? value : new Date(value);
  const text = isDateOnly ? formatDate(date, locale) : formatDateTime(date, locale);
  // Day and time each stay whole, but a narrow column may put the time under the day ("24/11/2026," / "21:48").
  const cut = text.lastIndexOf(", ");
  const [day, time] = cut === -1 ? [text, null] : [text.slice(0, cut + 1), text.slice(cut + 2)];
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(date, locale)} className={cn("tabular-nums", className)}>
      <span className="whitespace-nowrap">{day}</span>
      {time ? (
        <>
          {" "}
          <span className="whitespace-nowrap">{time}</span>
        </>
      ) : null}
    </time>
  );
}
