"use client";

import { RefreshCwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import type { TPeriod } from "@/lib/list/period";

import { refreshPixChargesPageAction } from "../actions";
import { usePixErrorText } from "./use-pix-error-text";

type Progress = { page: number; totalPages: number | null };

/**
 * Pulls the period's charges from the gateway's list into the mirror one upstream page per
 * action call, so each call stays short and the person sees how far it got.
 */
export function RefreshFromGatewayButton({ period }: { period: TPeriod }) {
  const t = useTranslations("pix.list.refresh");
  const { formText } = usePixErrorText();
  const router = useRouter();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [isRefreshing, startRefresh] = useTransition();

  async function refresh() {
    let totalPages: number | null = null;
    let upserted = 0;
    for (let page = 0; totalPages === null || page < totalPages; page++) {
      setProgress({ page: page + 1, totalPages });
      const result = await refreshPixChargesPageAction({ ...period, page });
      if (!result.ok) {
        setProgress(null);
        toast.error(formText(result.error));
        return;
      }
      totalPages = result.data.totalPages;
      upserted += result.data.upserted;
    }
    setProgress(null);
    toast.success(t("done", { count: upserted }));
    startRefresh(() => router.refresh());
  }

  const isBusy = progress !== null || isRefreshing;
  return (
    <div className="flex items-center gap-3">
      <span aria-live="polite" className="text-sm text-muted-foreground tabular-nums">
        {progress
          ? progress.totalPages
            ? t("progress", { page: progress.page, totalPages: progress.totalPages })
            : t("starting")
          : null}
      </span>
      <Button variant="outline" disabled={isBusy} onClick={() => void refresh()}>
        {isBusy ? <Spinner /> : <RefreshCwIcon aria-hidden="true" />}
        {t("button")}
      </Button>
    </div>
  );
}
