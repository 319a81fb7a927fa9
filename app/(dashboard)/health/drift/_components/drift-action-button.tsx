"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { healDriftAction, removeUnknownAction } from "../actions";

const actions = { heal: healDriftAction, remove: removeUnknownAction };

/** Heal (apply the gateway's copy) or remove a row the gateway does not know; `description` says what will change. */
export function DriftActionButton({
  id,
  action,
  description,
  label,
}: {
  id: string;
  action: keyof typeof actions;
  description: string;
  label: string;
}) {
  const t = useTranslations("health.drift");
  const { formText } = useActionErrorText("health.drift");
  const router = useRouter();
  return (
    <ConfirmActionButton
      trigger={
        <Button size="sm" variant="outline">
          {t(`${action}.button`)}
          <span className="sr-only">: {label}</span>
        </Button>
      }
      title={t(`${action}.title`)}
      description={description}
      descriptionClassName="[overflow-wrap:anywhere]"
      confirmLabel={t(`${action}.confirm`)}
      variant={action === "remove" ? "destructive" : "default"}
      action={() => actions[action]({ id })}
      successMessage={t(`${action}.done`)}
      onSuccess={() => router.refresh()}
      errorText={formText}
    />
  );
}
