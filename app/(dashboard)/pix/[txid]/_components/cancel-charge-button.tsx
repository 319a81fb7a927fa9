"use client";

import { BanIcon } from "lucide-react";
import { useTranslations } from "next-intl";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { usePixErrorText } from "../../_components/use-pix-error-text";
import { cancelPixChargeAction } from "../../actions";
import { useRefreshPixCharge } from "./use-pix-charge";

/**
 * Cancel with confirmation. The dialog stays mounted after a refusal even though the refreshed
 * charge is no longer cancellable, so the reason stays on screen until the person closes it.
 */
export function CancelChargeButton({ txid, canCancel }: { txid: string; canCancel: boolean }) {
  const t = useTranslations("pix.cancel");
  const { formText } = usePixErrorText();
  const refreshCharge = useRefreshPixCharge(txid);

  return (
    <ConfirmActionButton
      trigger={
        canCancel ? (
          <Button variant="outline">
            <BanIcon aria-hidden="true" />
            {t("button")}
          </Button>
        ) : null
      }
      title={t("title")}
      description={t("description")}
      cancelLabel={t("keep")}
      closeLabel={t("close")}
      confirmLabel={t("confirm")}
      variant="destructive"
      action={() => cancelPixChargeAction({ txid })}
      // Either way the charge may have changed (a 409 means it was paid or expired meanwhile).
      onSettled={() => refreshCharge()}
      successMessage={t("done")}
      errorText={(error) => formText(error, { CONFLICT: t("conflict") })}
      errorDisplay="inline"
    />
  );
}
