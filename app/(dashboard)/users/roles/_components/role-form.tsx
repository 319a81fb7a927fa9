"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { MoneyInput } from "@/components/money-input";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { permissionGroups, type TPermission } from "@/lib/auth/permissions";
import { createRoleAction, deleteRoleAction, updateRoleAction } from "../actions";

type TRoleFormValues = {
  roleId: string | null;
  isBuiltIn: boolean;
  label: string;
  description: string;
  permissions: TPermission[];
  refundLimitCents: number;
  userCount: number;
};

type RoleFormProps = { role: TRoleFormValues; viewerPermissions: readonly TPermission[] };

// The catalog as a checklist: a box the viewer does not hold is disabled (the server refuses it too), and a
// built-in role's boxes are read-only (each release sets them); its refund limit can still be set.
export function RoleForm({ role, viewerPermissions }: RoleFormProps) {
  const t = useTranslations("roles.form");
  const tPermissions = useTranslations("permissions");
  const tChanges = useTranslations("adminChanges");
  const router = useRouter();
  const { fieldText, formText } = useActionErrorText("roles");
  const [checked, setChecked] = useState<TPermission[]>(role.permissions);
  const [refundLimitCents, setRefundLimitCents] = useState<number | null>(role.refundLimitCents);
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function toggle(permission: TPermission, isOn: boolean) {
    setChecked((current) => (isOn ? [...current, permission] : current.filter((held) => held !== permission)));
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      name: role.isBuiltIn ? role.label : String(form.get("name") ?? ""),
      description: role.isBuiltIn ? null : String(form.get("description") ?? ""),
      permissions: checked,
      refundLimitCents: refundLimitCents ?? 0,
    };
    startTransition(async () => {
      if (role.roleId) {
        const result = await updateRoleAction({ ...input, roleId: role.roleId });
        if (!result.ok) return setError(result.error);
        toast.success(result.data.status === "pending" ? tChanges("held") : t("saved"));
      } else {
        const result = await createRoleAction(input);
        if (!result.ok) return setError(result.error);
        toast.success(t("created"));
      }
      router.push("/users/roles");
      router.refresh();
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid max-w-3xl gap-6" noValidate>
      <FormError>{error ? formText(error) : null}</FormError>
      {role.isBuiltIn ? null : (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t("name")} required error={fieldText(error?.fieldErrors?.name)}>
            <Input name="name" defaultValue={role.label} maxLength={60} autoComplete="off" />
          </Field>
          <Field label={t("description")} error={fieldText(error?.fieldErrors?.description)}>
            <Textarea name="description" defaultValue={role.description} maxLength={200} rows={2} />
          </Field>
        </div>
      )}
      <fieldset className="grid gap-4" aria-describedby="role-permissions-hint">
        <legend className="text-sm font-medium">{t("permissions")}</legend>
        <p id="role-permissions-hint" className="text-sm text-muted-foreground">
          {role.isBuiltIn ? t("builtInHint") : t("permissionsHint")}
        </p>
        {error?.fieldErrors?.permissions ? (
          <p className="text-sm text-destructive">{fieldText(error.fieldErrors.permissions)}</p>
        ) : null}
        {Object.entries(permissionGroups).map(([group, items]) => (
          <div key={group} className="grid gap-2 rounded-md border p-3">
            <h3 className="text-sm font-semibold">{tPermissions(`groups.${group}`)}</h3>
            <ul className="grid gap-2">
              {items.map((permission) => {
                const id = `permission-${permission}`;
                const isHeldByViewer = viewerPermissions.includes(permission);
                return (
                  <li key={permission} className="flex items-start gap-3">
                    <Checkbox
                      id={id}
                      checked={checked.includes(permission)}
                      disabled={role.isBuiltIn || !isHeldByViewer}
                      onCheckedChange={(value) => toggle(permission, value === true)}
                      aria-describedby={`${id}-description`}
                      className="mt-0.5"
                    />
                    <div className="grid gap-0.5">
                      <label htmlFor={id} className="text-sm font-medium">
                        {tPermissions(`items.${permission}.label`)}
                      </label>
                      <p id={`${id}-description`} className="text-xs text-muted-foreground">
                        {tPermissions(`items.${permission}.description`)}
                        {isHeldByViewer || role.isBuiltIn ? null : ` ${t("notYours")}`}
                      </p>
                    </div>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </fieldset>
      <Field
        label={t("refundLimit")}
        description={t("refundLimitHint")}
        error={fieldText(error?.fieldErrors?.refundLimitCents)}
      >
        <MoneyInput valueCents={refundLimitCents} onValueChange={setRefundLimitCents} className="max-w-48" />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={isPending}>
          {role.roleId ? t("save") : t("create")}
        </Button>
        <Button type="button" variant="outline" onClick={() => router.push("/users/roles")}>
          {t("cancel")}
        </Button>
        {role.roleId && !role.isBuiltIn ? (
          <DeleteRoleButton roleId={role.roleId} label={role.label} userCount={role.userCount} />
        ) : null}
      </div>
    </form>
  );
}

function DeleteRoleButton({ roleId, label, userCount }: { roleId: string; label: string; userCount: number }) {
  const t = useTranslations("roles.form");
  const router = useRouter();
  const { formText } = useActionErrorText("roles");
  return (
    <ConfirmActionButton
      trigger={
        <Button type="button" variant="destructive">
          {t("delete")}
        </Button>
      }
      title={t("deleteTitle", { role: label })}
      description={userCount > 0 ? t("deleteInUse", { count: userCount }) : t("deleteDescription")}
      confirmLabel={t("delete")}
      variant="destructive"
      action={() => deleteRoleAction({ roleId })}
      successMessage={() => t("deleted")}
      onSuccess={() => router.push("/users/roles")}
      errorText={formText}
    />
  );
}
