"use client";

import { MoreHorizontalIcon } from "lucide-react";
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
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import type { ActionResult } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { changeUserRoleAction, resetUserPasswordAction, setUserActiveAction } from "../actions";
import { OneTimePassword } from "./one-time-password";

type Row = { id: string; name: string; email: string; role: "ADMIN" | "STAFF"; isActive: boolean };
type Change = "makeAdmin" | "makeStaff" | "deactivate" | "reactivate" | "resetPassword";

export function UserRowActions({ user, isSelf }: { user: Row; isSelf: boolean }) {
  const t = useTranslations("users.actions");
  const tCommon = useTranslations("common");
  const { formText } = useActionErrorText();
  const [change, setChange] = useState<Change | null>(null);
  const [oneTimePassword, setOneTimePassword] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  // Admins cannot demote or deactivate themselves (the server refuses too).
  const changes: Change[] = [
    ...(isSelf ? [] : [user.role === "ADMIN" ? "makeStaff" : "makeAdmin", user.isActive ? "deactivate" : "reactivate"] as const),
    "resetPassword",
  ];

  function run(selected: Change) {
    startTransition(async () => {
      let result: ActionResult<unknown>;
      if (selected === "makeAdmin" || selected === "makeStaff") {
        result = await changeUserRoleAction({ userId: user.id, role: selected === "makeAdmin" ? "ADMIN" : "STAFF" });
      } else if (selected === "deactivate" || selected === "reactivate") {
        result = await setUserActiveAction({ userId: user.id, isActive: selected === "reactivate" });
      } else {
        const reset = await resetUserPasswordAction({ userId: user.id });
        if (reset.ok) setOneTimePassword(reset.data.oneTimePassword);
        result = reset;
      }
      setChange(null);
      if (result.ok) toast.success(t(`${selected}.done`, { name: user.name }));
      else toast.error(formText(result.error));
    });
  }

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon-sm" aria-label={t("menu", { name: user.name })}>
            <MoreHorizontalIcon aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          {changes.map((item) => (
            <DropdownMenuItem
              key={item}
              variant={item === "deactivate" ? "destructive" : "default"}
              onSelect={() => setChange(item)}
            >
              {t(`${item}.label`)}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>

      <AlertDialog open={change !== null} onOpenChange={(open) => !open && !isPending && setChange(null)}>
        <AlertDialogContent>
          {change ? (
            <>
              <AlertDialogHeader>
                <AlertDialogTitle>{t(`${change}.title`, { name: user.name })}</AlertDialogTitle>
                <AlertDialogDescription>{t(`${change}.description`, { name: user.name, email: user.email })}</AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel disabled={isPending}>{tCommon("cancel")}</AlertDialogCancel>
                <AlertDialogAction
                  variant={change === "deactivate" ? "destructive" : "default"}
                  disabled={isPending}
                  onClick={(event) => {
                    // Stay open until the server answers.
                    event.preventDefault();
                    run(change);
                  }}
                >
                  {t(`${change}.confirm`)}
                </AlertDialogAction>
              </AlertDialogFooter>
            </>
          ) : null}
        </AlertDialogContent>
      </AlertDialog>

      <Dialog open={oneTimePassword !== null} onOpenChange={(open) => !open && setOneTimePassword(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t("resetPassword.doneTitle")}</DialogTitle>
            <DialogDescription>{t("resetPassword.doneDescription")}</DialogDescription>
          </DialogHeader>
          {oneTimePassword ? <OneTimePassword email={user.email} password={oneTimePassword} /> : null}
          <DialogFooter>
            <Button type="button" onClick={() => setOneTimePassword(null)}>
              {tCommon("close")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
