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
  const [isOpen, setIsOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  function cancelLink() {
    startTransition(async () => {
      const result = await cancelPaymentLinkAction({ linkPaymentUuid });
      await refreshLink();
      if (result.ok) {
        setIsOpen(false);
        toast.success(t("done"));
      } else {
        setError(formText(result.error));
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
                cancelLink();
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
