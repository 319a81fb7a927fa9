"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { healDriftAction } from "../actions";

export function HealDriftButton({ id, changes, label }: { id: string; changes: string; label: string }) {
  const t = useTranslations("health.drift.heal");
  const { formText } = useActionErrorText("health.drift");
  const router = useRouter();
  return (
    <ConfirmActionButton
      trigger={
        <Button size="sm" variant="outline">
          {t("button")}
          <span className="sr-only">: {label}</span>
        </Button>
      }
      title={t("title")}
      description={t("description", { changes })}
      descriptionClassName="break-all"
      confirmLabel={t("confirm")}
      action={() => healDriftAction({ id })}
      successMessage={t("done")}
      onSuccess={() => router.refresh()}
      errorText={formText}
    />
  );
}
