"use client";

import { BanIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";

import { cancelCardPaymentAction } from "../../actions";
import { useCardPaymentErrorText } from "./use-card-payment-error-text";

/**
 * Cancel with confirmation. Each opening of the dialog takes a new idempotency key, so a double click or a retry
 * inside it cancels once. The dialog stays open after a refusal with the reason, while the page behind it is
 * rendered again with the state the server read (already cancelled, refused).
 */
export function CancelCardPaymentButton({
  paymentId,
  amountCents,
  canCancel,
}: {
  paymentId: string;
  amountCents: number;
  canCancel: boolean;
}) {
  const t = useTranslations("cardPayments.cancel");
  const locale = resolveLocale(useLocale());
  const errorText = useCardPaymentErrorText();
  const router = useRouter();
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  return (
    <ConfirmActionButton
      // Mounted even when no longer cancellable, so a refusal stays on screen until the dialog is closed.
      trigger={
        canCancel ? (
          <Button variant="outline">
            <BanIcon aria-hidden="true" />
            {t("button")}
          </Button>
        ) : null
      }
      onOpenChange={(open) => {
        if (open) setIdempotencyKey(crypto.randomUUID());
      }}
      title={t("title")}
      description={t("description", { amount: formatBRL(amountCents, locale) })}
      cancelLabel={t("keep")}
      confirmLabel={t("confirm")}
      variant="destructive"
      action={() => cancelCardPaymentAction({ paymentId, idempotencyKey })}
      // Either way the payment may have changed (a 409 means it was cancelled or refused meanwhile).
      onSettled={() => router.refresh()}
      successMessage={t("done")}
      errorText={errorText}
      errorDisplay="inline"
    />
  );
}
