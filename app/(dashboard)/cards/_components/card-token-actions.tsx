"use client";

import { CreditCardIcon } from "lucide-react";
import Link from "next/link";
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
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TCardTokenRow } from "@/lib/saved-cards/types";
import { cn } from "@/lib/utils";

import { disableCardTokenAction, enableCardTokenAction } from "../actions";

/** Active/inactive as a switch: enabling goes straight through, disabling asks first. Both can be undone. */
export function CardTokenStatusToggle({ card }: { card: TCardTokenRow }) {
  const t = useTranslations("cards.toggle");
  const tCommon = useTranslations("common");
  const { formText } = useActionErrorText("cards");
  const router = useRouter();
  const [isConfirming, setIsConfirming] = useState(false);
  const [isPending, startTransition] = useTransition();
  const isActive = card.status === "ATV";

  function run() {
    startTransition(async () => {
      const action = isActive ? disableCardTokenAction : enableCardTokenAction;
      const result = await action({ token: card.token });
      setIsConfirming(false);
      if (!result.ok) {
        toast.error(formText(result.error));
      } else if (result.data.status === "unchanged") {
        // 409: someone (or something) changed it first; the row now shows the state read again.
        const isNowActive = result.data.card.status === "ATV";
        toast.info(t(isNowActive ? "alreadyActive" : "alreadyInactive", { lastFour: card.lastFour }));
      } else {
        toast.success(t(isActive ? "disabled" : "enabled", { lastFour: card.lastFour }));
      }
      router.refresh();
    });
  }

  return (
    <>
      <button
        type="button"
        role="switch"
        aria-checked={isActive}
        aria-label={t("label", { lastFour: card.lastFour })}
        disabled={isPending}
        onClick={() => (isActive ? setIsConfirming(true) : run())}
        className={cn(
          "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors",
          "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none",
          "disabled:cursor-not-allowed disabled:opacity-50",
          isActive ? "bg-success" : "bg-muted-foreground/40",
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            "inline-block size-5 rounded-full bg-background shadow transition-transform",
            isActive ? "translate-x-5" : "translate-x-0",
          )}
        />
      </button>
      <AlertDialog open={isConfirming} onOpenChange={(open) => !isPending && setIsConfirming(open)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t("confirmTitle", { lastFour: card.lastFour })}</AlertDialogTitle>
            <AlertDialogDescription>{t("confirmDescription")}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={isPending}>{tCommon("cancel")}</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              disabled={isPending}
              onClick={(event) => {
                // Stay open until the server answers.
                event.preventDefault();
                run();
              }}
            >
              {isPending ? <Spinner /> : null}
              {t("confirm")}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** The payments area's virtual terminal, charging this token (only an active token can pay). */
export function UseInTerminalLink({ card }: { card: TCardTokenRow }) {
  const t = useTranslations("cards");
  if (card.status !== "ATV") return null;
  return (
    <Button asChild variant="outline" size="sm">
      <Link href={`/payments/new?token=${encodeURIComponent(card.token)}`}>
        <CreditCardIcon aria-hidden="true" />
        <span>
          {t("useInTerminal")}
          <span className="sr-only"> {t("cardEnding", { lastFour: card.lastFour })}</span>
        </span>
      </Link>
    </Button>
  );
}
