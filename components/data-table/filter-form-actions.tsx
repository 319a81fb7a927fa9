import Link from "next/link";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";

type FilterFormActionsProps = {
  applyLabel: string;
  clearLabel: string;
  /** The list without filters; the Clear link shows only while a filter is set. */
  clearHref: string;
  hasFilters: boolean;
  /** The list's current order, kept when filtering (the page goes back to the first). */
  sort?: string;
  order?: string;
  isPending?: boolean;
  className?: string;
};

/** The end of a list's GET filter form: Apply, and Clear while filtered. */
export function FilterFormActions({
  applyLabel,
  clearLabel,
  clearHref,
  hasFilters,
  sort,
  order,
  isPending = false,
  className,
}: FilterFormActionsProps) {
  return (
    <>
      {sort ? <input type="hidden" name="sort" value={sort} /> : null}
      {order ? <input type="hidden" name="order" value={order} /> : null}
      <div className={cn("flex gap-2", className)}>
        <Button type="submit" disabled={isPending}>
          {isPending ? <Spinner /> : null}
          {applyLabel}
        </Button>
        {hasFilters ? (
          <Button asChild variant="outline">
            <Link href={clearHref}>{clearLabel}</Link>
          </Button>
        ) : null}
      </div>
    </>
  );
}
