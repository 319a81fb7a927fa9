"use client";

import { RefreshCwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TPeriod } from "@/lib/list/period";

import { refreshPaymentLinksAction } from "../actions";

/** Pulls the period's links from the gateway's list (one call: upstream does not page it) into the mirror. */
export function RefreshLinksButton({ period }: { period: TPeriod }) {
  const t = useTranslations("links.list.refresh");
  const { formText } = useActionErrorText("links");
  const router = useRouter();
  const [isPending, startTransition] = useTransition();

  function refresh() {
    startTransition(async () => {
      const result = await refreshPaymentLinksAction(period);
      if (!result.ok) {
        toast.error(formText(result.error));
        return;
      }
      toast.success(t("done", { count: result.data.upserted, received: result.data.received }));
      router.refresh();
    });
  }

  return (
    <div className="flex items-center gap-3">
      <span aria-live="polite" className="text-sm text-muted-foreground">
        {isPending ? t("progress") : null}
      </span>
      <Button variant="outline" disabled={isPending} onClick={refresh}>
        {isPending ? <Spinner /> : <RefreshCwIcon aria-hidden="true" />}
        {t("button")}
      </Button>
    </div>
  );
}
