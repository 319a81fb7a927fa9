"use client";

import { RotateCwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
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
import { Spinner } from "@/components/ui/spinner";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { replayDeliveryAction } from "../actions";

// Runs the stored delivery through the same idempotent apply path: an effect already applied
// stays applied once (the replay is recorded as a duplicate).
export function ReplayDeliveryButton({ deliveryId }: { deliveryId: string }) {
  const t = useTranslations("webhooks.delivery.replay");
  const tCommon = useTranslations("common");
  const { formText } = useActionErrorText("webhooks");
  const router = useRouter();
  const [isOpen, setIsOpen] = useState(false);
  const [isPending, startTransition] = useTransition();

  function replay() {
    startTransition(async () => {
      const result = await replayDeliveryAction({ id: deliveryId });
      setIsOpen(false);
      if (!result.ok) {
        toast.error(formText(result.error));
        return;
      }
      toast.success(t("done"));
      router.push(`/webhooks/deliveries/${result.data.id}`);
    });
  }

  return (
    <AlertDialog open={isOpen} onOpenChange={(open) => !isPending && setIsOpen(open)}>
      <AlertDialogTrigger asChild>
        <Button variant="outline">
          <RotateCwIcon aria-hidden="true" />
          {t("button")}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{t("title")}</AlertDialogTitle>
          <AlertDialogDescription>{t("description")}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={isPending}>{tCommon("cancel")}</AlertDialogCancel>
          <AlertDialogAction
            disabled={isPending}
            onClick={(event) => {
              event.preventDefault();
              replay();
            }}
          >
            {isPending ? <Spinner /> : null}
            {t("confirm")}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
