"use client";

import { RefreshCwIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { runReconciliationAction } from "../reconcile-actions";

export function ReconcileNowButton() {
  const t = useTranslations("reconciliation");
  const { formText } = useActionErrorText("reconciliation");
  const [isPending, startTransition] = useTransition();

  function run() {
    startTransition(async () => {
      const result = await runReconciliationAction({});
      if (!result.ok) return void toast.error(formText(result.error));
      if (result.data.status === "FAILED") toast.warning(t("toast.failed", { count: result.data.healedCount }));
      else toast.success(t("toast.done", { count: result.data.healedCount }));
    });
  }

  return (
    <Button variant="outline" onClick={run} disabled={isPending}>
      {isPending ? <Spinner /> : <RefreshCwIcon aria-hidden="true" />}
      {isPending ? t("running") : t("runNow")}
    </Button>
  );
}
