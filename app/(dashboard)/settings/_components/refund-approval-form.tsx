"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { MoneyInput } from "@/components/money-input";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { setRefundApprovalThresholdAction } from "../actions";

/** Above this amount a Pix refund needs the requester's code or a second admin; R$ 0,00 turns it off. */
export function RefundApprovalForm({ thresholdCents }: { thresholdCents: number }) {
  const t = useTranslations("settings.refundApproval");
  const tChanges = useTranslations("adminChanges");
  const { formText } = useActionErrorText("settings");
  const [valueCents, setValueCents] = useState<number | null>(thresholdCents);
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    startTransition(async () => {
      const result = await setRefundApprovalThresholdAction({ thresholdCents: valueCents ?? 0 });
      setError(result.ok ? null : result.error);
      // Raising the threshold or turning it off waits for a second admin.
      if (result.ok) toast.success(result.data.status === "pending" ? tChanges("held") : t("saved"));
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid max-w-sm gap-4">
      <FormError>{error ? formText(error) : null}</FormError>
      <Field label={t("label")}>
        <MoneyInput valueCents={valueCents} onValueChange={setValueCents} />
      </Field>
      <Button type="submit" className="justify-self-start" disabled={isPending}>
        {t("save")}
      </Button>
    </form>
  );
}
