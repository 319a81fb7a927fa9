"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, useState, useTransition } from "react";
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
import { FormError } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import type { TActionError, TActionResult } from "@/lib/actions/define-action";

type ConfirmActionButtonProps<T> = {
  /** The button that opens the confirmation; leave it out and pass `open` to open it from elsewhere (a menu). */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  descriptionClassName?: string;
  confirmLabel: string;
  /** Defaults to the common "Cancel". */
  cancelLabel?: string;
  /** Replaces `cancelLabel` while a refusal is shown in the dialog; defaults to the common "Close". */
  closeLabel?: string;
  variant?: "default" | "destructive";
  hasSpinner?: boolean;
  action: () => Promise<TActionResult<T>>;
  /** Runs after the action whatever its outcome, before the outcome is shown (for example a refetch). */
  onSettled?: (result: TActionResult<T>) => Promise<void> | void;
  onSuccess?: (data: T) => void;
  /** A function when the answer decides it (for example a change held for a second admin). */
  successMessage: string | ((data: T) => string);
  /** Fields the action reads (for example an authenticator code), between the description and the refusal. */
  children?: ReactNode;
  errorText: (error: TActionError) => string;
  /** "inline" keeps the dialog open with the reason until the person closes it; "toast" closes it and toasts the reason. */
  errorDisplay?: "inline" | "toast";
};

/**
 * A confirmation that runs a server action: the dialog stays open (and cannot be dismissed) until
 * the server answers, then closes with a success toast or shows the refusal.
 */
export function ConfirmActionButton<T>({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  descriptionClassName,
  confirmLabel,
  cancelLabel,
  closeLabel,
  variant = "default",
  hasSpinner = true,
  action,
  onSettled,
  onSuccess,
  successMessage,
  errorText,
  errorDisplay = "toast",
  children,
}: ConfirmActionButtonProps<T>) {
  const tCommon = useTranslations("common");
  const [uncontrolledOpen, setUncontrolledOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const isOpen = open ?? uncontrolledOpen;

  function setOpen(next: boolean) {
    setUncontrolledOpen(next);
    onOpenChange?.(next);
  }

  function confirm() {
    startTransition(async () => {
      const result = await action();
      await onSettled?.(result);
      if (result.ok) {
        setOpen(false);
        toast.success(typeof successMessage === "function" ? successMessage(result.data) : successMessage);
        onSuccess?.(result.data);
      } else if (errorDisplay === "inline") {
        setError(errorText(result.error));
      } else {
        setOpen(false);
        toast.error(errorText(result.error));
      }
    });
  }

  // Without its trigger and closed, an uncontrolled confirmation cannot open again.
  if (!trigger && open === undefined && !isOpen) return null;
  return (
    <AlertDialog
      open={isOpen}
      onOpenChange={(next) => {
        if (isPending) return;
        setOpen(next);
        setError(null);
      }}
    >
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription className={descriptionClassName}>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        {errorDisplay === "inline" ? <FormError>{error}</FormError> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={isPending}>
            {error ? (closeLabel ?? tCommon("close")) : (cancelLabel ?? tCommon("cancel"))}
          </AlertDialogCancel>
          {error ? null : (
            <AlertDialogAction
              variant={variant}
              disabled={isPending}
              onClick={(event) => {
                // Stay open until the server answers.
                event.preventDefault();
                confirm();
              }}
            >
              {hasSpinner && isPending ? <Spinner /> : null}
              {confirmLabel}
            </AlertDialogAction>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
