import Link from "next/link";
import type { ReactNode } from "react";

import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import type { TDateInput } from "@/lib/format/date-time";

type LiveDetailHeaderProps = {
  title: string;
  /** The resource's status badge. */
  status: ReactNode;
  statusTestId: string;
  syncedAtLabel: string;
  syncedAt: TDateInput;
  /** Shown while the page cannot refresh itself, so nobody trusts a stale status. */
  pollFailingLabel: string;
  isPollFailing: boolean;
  /** Shown before the back link (for example the cancel button). */
  actions?: ReactNode;
  backHref: string;
  backLabel: string;
};

/** The header of a detail page kept current without a reload: title, live status, last sync, back link. */
export function LiveDetailHeader({
  title,
  status,
  statusTestId,
  syncedAtLabel,
  syncedAt,
  pollFailingLabel,
  isPollFailing,
  actions,
  backHref,
  backLabel,
}: LiveDetailHeaderProps) {
  return (
    <PageHeader
      className="mb-0"
      title={
        <span className="flex flex-wrap items-center gap-3">
          {title}
          {/* Announced when it changes: staff may be on the phone with the payer, or looking at them rather than the screen. */}
          <span aria-live="polite" data-testid={statusTestId}>
            {status}
          </span>
        </span>
      }
      description={
        <span className="flex flex-wrap gap-x-2">
          <span>{syncedAtLabel}</span>
          <DateTime value={syncedAt} />
          {isPollFailing ? <span className="text-warning">{pollFailingLabel}</span> : null}
        </span>
      }
      actions={
        <>
          {actions}
          <Button asChild variant="outline">
            <Link href={backHref}>{backLabel}</Link>
          </Button>
        </>
      }
    />
  );
}
