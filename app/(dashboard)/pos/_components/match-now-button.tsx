"use client";

import { RefreshCwIcon } from "lucide-react";
import { useTranslations } from "next-intl";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { runPosMatchingAction } from "../actions";

export function MatchNowButton() {
  const t = useTranslations("pos.sales.matchNow");
  const { formText } = useActionErrorText("pos");
  return (
    <ConfirmActionButton
      trigger={
        <Button variant="outline">
          <RefreshCwIcon aria-hidden="true" />
          {t("open")}
        </Button>
      }
      title={t("title")}
      description={t("description")}
      confirmLabel={t("confirm")}
      action={() => runPosMatchingAction({})}
      successMessage={t("done")}
      errorText={formText}
    />
  );
}
