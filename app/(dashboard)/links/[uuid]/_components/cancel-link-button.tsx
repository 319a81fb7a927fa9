"use client";

import { BanIcon } from "lucide-react";
import { useTranslations } from "next-intl";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { cancelPaymentLinkAction } from "../../actions";
import { useRefreshPaymentLink } from "./use-payment-link";

/**
 * Cancel with confirmation. After a refusal (409: paid or cancelled meanwhile) the dialog stays
 * open with the reason, even though the refreshed link no longer offers the button.
 */
export function CancelLinkButton({ linkPaymentUuid, canCancel }: { linkPaymentUuid: string; canCancel: boolean }) {
  const t = useTranslations("links.cancel");
  const { formText } = useActionErrorText("links");
  const refreshLink = useRefreshPaymentLink(linkPaymentUuid);

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
      action={() => cancelPaymentLinkAction({ linkPaymentUuid })}
      onSettled={refreshLink}
      successMessage={t("done")}
      errorText={formText}
      errorDisplay="inline"
    />
  );
}
