"use client";

import { BanIcon, CircleCheckIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { setPosStatusAction } from "../actions";

type PosStatusButtonProps = { kind: "seller" | "device"; id: string; isBlocked: boolean };

/** Block (with a reason, confirmed in a dialog) or unblock a seller or one PDV. */
export function PosStatusButton({ kind, id, isBlocked }: PosStatusButtonProps) {
  const t = useTranslations("pos.block");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText("pos");
  const [isOpen, setIsOpen] = useState(false);
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  if (isBlocked) {
    return (
      <ConfirmActionButton
        trigger={
          <Button variant="outline" size="sm">
            <CircleCheckIcon aria-hidden="true" />
            {t("unblock")}
          </Button>
        }
        title={t(`${kind}.unblockTitle`, { id })}
        description={t(`${kind}.unblockDescription`)}
        confirmLabel={t("unblock")}
        action={() => setPosStatusAction({ kind, id, isBlocked: false })}
        successMessage={t("unblocked")}
        errorText={formText}
      />
    );
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "");
    startTransition(async () => {
      const result = await setPosStatusAction({ kind, id, isBlocked: true, reason });
      if (!result.ok) return setError(result.error);
      setIsOpen(false);
      setError(null);
      toast.success(t("blocked"));
    });
  }

  const reasonError = fieldText(error?.fieldErrors?.reason);
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        if (isPending) return;
        setIsOpen(open);
        setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <BanIcon aria-hidden="true" />
          {t("block")}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t(`${kind}.blockTitle`, { id })}</DialogTitle>
          <DialogDescription>{t(`${kind}.blockDescription`)}</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
          <FormError>{error && !reasonError ? formText(error) : null}</FormError>
          <Field label={t("reason")} error={reasonError} required>
            <Textarea name="reason" rows={3} maxLength={300} />
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setIsOpen(false)} disabled={isPending}>
              {tCommon("cancel")}
            </Button>
            <Button type="submit" variant="destructive" disabled={isPending}>
              {isPending ? <Spinner /> : null}
              {t("confirmBlock")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
