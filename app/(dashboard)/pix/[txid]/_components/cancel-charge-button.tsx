"use client";

import { BanIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { toast } from "sonner";

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";

import { cancelPixChargeAction } from "../../actions";
import { usePixErrorText } from "../../_components/use-pix-error-text";
import { useRefreshPixCharge } from "./use-pix-charge";

/**
 * Cancel with confirmation. The dialog stays mounted after a refusal even though the refreshed
 * charge is no longer cancellable, so the reason stays on screen until the person closes it.
 */
export function CancelChargeButton({ txid, canCancel }: { txid: string; canCancel: boolean }) {
  const t = useTranslations("pix.cancel");
  const { formText } = usePixErrorText();
  const refreshCharge = useRefreshPixCharge(txid);
  const [isOpen, setIsOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  function cancelCharge() {
    startTransition(async () => {
      const result = await cancelPixChargeAction({ txid });
      // Either way the charge may have changed (a 409 means it was paid or expired meanwhile).
      await refreshCharge();
      if (result.ok) {
        setIsOpen(false);
        toast.success(t("done"));
      } else {
        setError(formText(result.error, { CONFLICT: t("conflict") }));
      }
    });
  }

  if (!canCancel && !isOpen) return null;
  return (
    <AlertDialog
      open={isOpen}
      onOpenChange={(open) => {
        if (isPending) return;
        setIsOpen(open);
        setError(null);
      }}
    >
      {canCancel ? (
        <AlertDialogTrigger asChild>
          <Button variant="outline">
            <BanIcon aria-hidden="true" />
            {t("button")}
          </Button>
        </AlertDialogTrigger>
      ) : null}
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{t("title")}</AlertDialogTitle>
          <AlertDialogDescription>{t("description")}</AlertDialogDescription>
        </AlertDialogHeader>
        <FormError>{error}</FormError>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={isPending}>{error ? t("close") : t("keep")}</AlertDialogCancel>
          {error ? null : (
            <AlertDialogAction
              variant="destructive"
              disabled={isPending}
              onClick={(event) => {
                // Stay open until the server answers.
                event.preventDefault();
                cancelCharge();
              }}
            >
              {isPending ? <Spinner /> : null}
              {t("confirm")}
            </AlertDialogAction>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
