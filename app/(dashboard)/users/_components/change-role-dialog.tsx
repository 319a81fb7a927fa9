"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { RoleOptionItems } from "@/components/role-option-items";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/native-select";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { changeUserRoleAction } from "../actions";
import { useRoleOptions } from "./role-options";

type ChangeRoleDialogProps = { user: { id: string; name: string; email: string; roleId: string }; onClose: () => void };

// A new role applies on the person's next request; one that holds users.manage waits for a second admin.
export function ChangeRoleDialog({ user, onClose }: ChangeRoleDialogProps) {
  const t = useTranslations("users.actions.changeRole");
  const tCommon = useTranslations("common");
  const tChanges = useTranslations("adminChanges");
  const roles = useRoleOptions();
  const { fieldText, formText } = useActionErrorText();
  const [roleId, setRoleId] = useState(user.roleId);
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    startTransition(async () => {
      const result = await changeUserRoleAction({ userId: user.id, roleId });
      if (!result.ok) return setError(result.error);
      onClose();
      const label = roles.find((role) => role.id === roleId)?.label ?? roleId;
      toast.success(result.data.status === "pending" ? tChanges("held") : t("done", { name: user.name, role: label }));
    });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("title", { name: user.name })}</DialogTitle>
          <DialogDescription>{t("description", { name: user.name, email: user.email })}</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit} className="grid gap-4">
          <FormError>{error ? formText(error) : null}</FormError>
          <Field label={t("label")} required error={fieldText(error?.fieldErrors?.roleId)}>
            <NativeSelect name="roleId" value={roleId} onChange={(event) => setRoleId(event.target.value)}>
              {roles.some((role) => role.id === user.roleId) ? null : (
                <option value={user.roleId} disabled>
                  {t("currentBeyondYours")}
                </option>
              )}
              <RoleOptionItems roles={roles} />
            </NativeSelect>
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {tCommon("cancel")}
            </Button>
            <Button type="submit" disabled={isPending || roleId === user.roleId}>
              {t("confirm")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
