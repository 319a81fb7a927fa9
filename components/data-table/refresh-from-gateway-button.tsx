"use client";

import { RefreshCwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import type { TActionError, TActionResult } from "@/lib/actions/define-action";
import type { TPeriod } from "@/lib/list/period";

type TProgress = { page: number; totalPages: number | null };

/** One upstream page pulled into the mirror; `isDone` ends the walk before the last page (a newest-first list). */
type TRefreshStep = { totalPages: number; upserted: number; isDone?: boolean };

type TRefreshFromGatewayButtonProps = {
  period: TPeriod;
  /** A server action that pulls one upstream page (from 0) of the period. */
  refreshPage: (input: TPeriod & { page: number }) => Promise<TActionResult<TRefreshStep>>;
  errorText: (error: TActionError) => string;
  labels: {
    button: string;
    starting: string;
    progress: (page: number, totalPages: number) => string;
    done: (upserted: number) => string;
  };
};

/**
 * Pulls a list's period from the gateway into the mirror one upstream page per action call, so each
 * call stays short and the person sees how far it got.
 */
export function RefreshFromGatewayButton({ period, refreshPage, errorText, labels }: TRefreshFromGatewayButtonProps) {
  const router = useRouter();
  const [progress, setProgress] = useState<TProgress | null>(null);
  const [isRefreshing, startRefresh] = useTransition();

  async function refresh() {
    let totalPages: number | null = null;
    let upserted = 0;
    for (let page = 0; totalPages === null || page < totalPages; page++) {
      setProgress({ page: page + 1, totalPages });
      const result = await refreshPage({ ...period, page });
      if (!result.ok) {
        setProgress(null);
        toast.error(errorText(result.error));
        return;
      }
      totalPages = result.data.totalPages;
      upserted += result.data.upserted;
      if (result.data.isDone) break;
    }
    setProgress(null);
    toast.success(labels.done(upserted));
    startRefresh(() => router.refresh());
  }

  const isBusy = progress !== null || isRefreshing;
  return (
    <div className="flex items-center gap-3">
      {/* Out of the flow while empty, so its gap does not push the button aside; still a live region. */}
      <span aria-live="polite" className="text-sm text-muted-foreground tabular-nums empty:absolute">
        {progress
          ? progress.totalPages
            ? labels.progress(progress.page, progress.totalPages)
            : labels.starting
          : null}
      </span>
      <Button variant="outline" disabled={isBusy} onClick={() => void refresh()}>
        {isBusy ? <Spinner /> : <RefreshCwIcon aria-hidden="true" />}
        {labels.button}
      </Button>
    </div>
  );
}
