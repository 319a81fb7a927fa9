"use client";

import { MoreHorizontalIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import type { TActionResult } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { resetUserPasswordAction, resetUserTwoFactorAction, setUserActiveAction } from "../actions";
import { ChangeRoleDialog } from "./change-role-dialog";

type Row = {
  id: string;
  name: string;
  email: string;
  roleId: string;
  isActive: boolean;
  hasTwoFactor: boolean;
};
type Change = "changeRole" | "deactivate" | "reactivate" | "resetPassword" | "resetTwoFactor";

export function UserRowActions({ user, isSelf }: { user: Row; isSelf: boolean }) {
  const t = useTranslations("users.actions");
  const tChanges = useTranslations("adminChanges");
  const { formText } = useActionErrorText();
  const [change, setChange] = useState<Change | null>(null);

  // Nobody changes their own role or deactivates themselves (the server refuses too).
  const changes: Change[] = [
    ...(isSelf ? [] : (["changeRole", user.isActive ? "deactivate" : "reactivate"] as const)),
    "resetPassword",
    // One's own is turned off at /account/security, with a code (the server refuses it here too).
    ...(user.hasTwoFactor && !isSelf ? (["resetTwoFactor"] as const) : []),
  ];

  async function run(selected: Exclude<Change, "changeRole">): Promise<TActionResult<unknown>> {
    if (selected === "deactivate" || selected === "reactivate") {
      return setUserActiveAction({ userId: user.id, isActive: selected === "reactivate" });
    }
    if (selected === "resetTwoFactor") return resetUserTwoFactorAction({ userId: user.id });
    return resetUserPasswordAction({ userId: user.id });
  }

  // Another admin's password or factors, and a new admin, wait for a second admin (lib/users/admin-changes.ts).
  const isHeld = (data: unknown) =>
    typeof data === "object" && data !== null && (data as { status?: string }).status === "pending";

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

      {change === "changeRole" ? (
        <ChangeRoleDialog user={user} onClose={() => setChange(null)} />
      ) : change ? (
        <ConfirmActionButton
          open
          onOpenChange={(open) => !open && setChange(null)}
          title={t(`${change}.title`, { name: user.name })}
          description={t(`${change}.description`, { name: user.name, email: user.email })}
          confirmLabel={t(`${change}.confirm`)}
          variant={change === "deactivate" ? "destructive" : "default"}
          hasSpinner={false}
          action={() => run(change)}
          successMessage={(data) => (isHeld(data) ? tChanges("held") : t(`${change}.done`, { name: user.name }))}
          errorText={formText}
        />
      ) : null}
    </>
  );
}
