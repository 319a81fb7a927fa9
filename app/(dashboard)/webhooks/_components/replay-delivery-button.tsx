"use client";

import { RotateCwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { replayDeliveryAction } from "../actions";

// Runs the stored delivery through the same idempotent apply path: an effect already applied
// stays applied once (the replay is recorded as a duplicate).
export function ReplayDeliveryButton({ deliveryId }: { deliveryId: string }) {
  const t = useTranslations("webhooks.delivery.replay");
  const { formText } = useActionErrorText("webhooks");
  const router = useRouter();

  return (
    <ConfirmActionButton
      trigger={
        <Button variant="outline">
          <RotateCwIcon aria-hidden="true" />
          {t("button")}
        </Button>
      }
      title={t("title")}
      description={t("description")}
      confirmLabel={t("confirm")}
      action={() => replayDeliveryAction({ id: deliveryId })}
      successMessage={t("done")}
      onSuccess={(replayed) => router.push(`/webhooks/deliveries/${replayed.id}`)}
      errorText={formText}
    />
  );
}
