"use client";

import { PlusIcon } from "lucide-react";
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
  DialogTrigger,
} from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { createUserAction } from "../actions";
import type { TRoleOption } from "./role-options";

export function CreateUserDialog({ roles }: { roles: TRoleOption[] }) {
  const t = useTranslations("users.create");
  const tCommon = useTranslations("common");
  const tChanges = useTranslations("adminChanges");
  const { fieldText, formText } = useActionErrorText();
  const [isOpen, setIsOpen] = useState(false);
  const [error, setError] = useState<TActionError | null>(null);
  const [invited, setInvited] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleOpenChange(open: boolean) {
    setIsOpen(open);
    if (!open) {
      setError(null);
      setInvited(null);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await createUserAction({
        email: String(form.get("email") ?? ""),
        name: String(form.get("name") ?? ""),
        roleId: String(form.get("roleId") ?? ""),
      });
      if (!result.ok) {
        setError(result.error);
      } else if (result.data.status === "pending") {
        // A new admin waits for a second admin: nothing to show but where it waits.
        handleOpenChange(false);
        toast.success(tChanges("held"));
      } else {
        setError(null);
        setInvited(result.data.email);
      }
    });
  }

  return (
    <Dialog open={isOpen} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden="true" />
          {t("open")}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{invited ? t("createdTitle") : t("title")}</DialogTitle>
          <DialogDescription>
            {invited ? t("createdDescription", { email: invited }) : t("description")}
          </DialogDescription>
        </DialogHeader>
        {invited ? (
          <DialogFooter>
            <Button type="button" onClick={() => handleOpenChange(false)}>
              {tCommon("close")}
            </Button>
          </DialogFooter>
        ) : (
          <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
            <FormError>{error && !error.fieldErrors ? formText(error) : null}</FormError>
            <Field label={t("name")} required error={fieldText(error?.fieldErrors?.name)}>
              <Input name="name" autoComplete="off" required maxLength={100} />
            </Field>
            <Field label={t("email")} required error={fieldText(error?.fieldErrors?.email)}>
              <Input name="email" type="email" autoComplete="off" required />
            </Field>
            <Field label={t("role")} required error={fieldText(error?.fieldErrors?.roleId)}>
              <NativeSelect
                name="roleId"
                defaultValue={roles.some((role) => role.id === "operations") ? "operations" : roles[0]?.id}
              >
                <RoleOptionItems roles={roles} />
              </NativeSelect>
            </Field>
            <DialogFooter>
              <Button type="submit" disabled={isPending}>
                {t("submit")}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
