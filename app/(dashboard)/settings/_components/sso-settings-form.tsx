"use client";

import { PlusIcon, Trash2Icon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { RoleOptionItems } from "@/components/role-option-items";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Textarea } from "@/components/ui/textarea";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { saveSsoSettingsAction } from "../actions";

export type TSsoFormValues = {
  isEnabled: boolean;
  issuerUrl: string;
  clientId: string;
  hasClientSecret: boolean;
  groupsClaim: string;
  groupRoles: { group: string; roleId: string }[];
  defaultRoleId: string | null;
  allowedDomains: string[];
  ssoOnlyDomains: string[];
  breakGlassOwnerId: string | null;
  requireVerifiedEmail: boolean;
};

type TOption = { id: string; label: string };

const lines = (value: FormDataEntryValue | null) =>
  String(value ?? "")
    .split(/[\s,;]+/)
    .map((line) => line.trim())
    .filter(Boolean);

export function SsoSettingsForm({
  values,
  roles,
  owners,
}: {
  values: TSsoFormValues;
  roles: TOption[];
  owners: TOption[];
}) {
  const t = useTranslations("settings.sso");
  const { fieldText, formText } = useActionErrorText("settings.sso");
  const [error, setError] = useState<TActionError | null>(null);
  const [hasClientSecret, setHasClientSecret] = useState(values.hasClientSecret);
  const [mappings, setMappings] = useState(values.groupRoles);
  const [isPending, startTransition] = useTransition();
  // Array fields answer per row ("allowedDomains.1"): the first one of a field is shown under it.
  const errorOf = (field: string) =>
    fieldText(
      Object.entries(error?.fieldErrors ?? {}).find(([key]) => key === field || key.startsWith(`${field}.`))?.[1],
    );

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      isEnabled: form.get("isEnabled") === "on",
      issuerUrl: String(form.get("issuerUrl") ?? ""),
      clientId: String(form.get("clientId") ?? ""),
      clientSecret: String(form.get("clientSecret") ?? ""),
      groupsClaim: String(form.get("groupsClaim") ?? ""),
      groupRoles: mappings,
      defaultRoleId: String(form.get("defaultRoleId") ?? "") || null,
      allowedDomains: lines(form.get("allowedDomains")),
      ssoOnlyDomains: lines(form.get("ssoOnlyDomains")),
      breakGlassOwnerId: String(form.get("breakGlassOwnerId") ?? "") || null,
      requireVerifiedEmail: form.get("requireVerifiedEmail") === "on",
    };
    const formElement = event.currentTarget;
    startTransition(async () => {
      const result = await saveSsoSettingsAction(input);
      setError(result.ok ? null : result.error);
      if (!result.ok) return;
      setHasClientSecret(result.data.hasClientSecret);
      const secretInput = formElement.elements.namedItem("clientSecret");
      if (secretInput instanceof HTMLInputElement) secretInput.value = "";
      toast.success(t("saved"));
    });
  }

  const updateMapping = (index: number, change: Partial<{ group: string; roleId: string }>) =>
    setMappings((rows) => rows.map((row, at) => (at === index ? { ...row, ...change } : row)));

  return (
    <form onSubmit={handleSubmit} className="grid max-w-2xl gap-4" noValidate>
      {/* Also the field errors' summary: a role beyond the admin's own grant has no field of its own here. */}
      <FormError>{error ? formText(error) : null}</FormError>
      <Field label={t("isEnabled")}>
        <Checkbox name="isEnabled" defaultChecked={values.isEnabled} />
      </Field>
      <Field label={t("issuerUrl")} description={t("issuerHint")} required error={errorOf("issuerUrl")}>
        <Input name="issuerUrl" type="url" defaultValue={values.issuerUrl} placeholder="https://" />
      </Field>
      <Field label={t("clientId")} required error={errorOf("clientId")}>
        <Input name="clientId" defaultValue={values.clientId} autoComplete="off" />
      </Field>
      <Field
        label={t("clientSecret")}
        description={hasClientSecret ? t("clientSecretSet") : t("clientSecretNotSet")}
        required={!hasClientSecret}
        error={errorOf("clientSecret")}
      >
        <Input name="clientSecret" type="password" autoComplete="new-password" />
      </Field>
      <Field label={t("groupsClaim")} required error={errorOf("groupsClaim")}>
        <Input name="groupsClaim" defaultValue={values.groupsClaim} autoComplete="off" />
      </Field>
      <fieldset className="grid gap-3">
        <legend className="mb-1 text-sm font-medium">{t("mappings")}</legend>
        <p className="text-sm text-muted-foreground">{t("mappingsHint")}</p>
        {mappings.map((row, index) => (
          // Rows have no id of their own; their order is their meaning (the first match wins).
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={index} className="grid items-end gap-2 sm:grid-cols-[1fr_1fr_auto]">
            <Field label={t("group")} error={errorOf(`groupRoles.${index}.group`)}>
              <Input value={row.group} onChange={(event) => updateMapping(index, { group: event.target.value })} />
            </Field>
            <Field label={t("role")} error={errorOf(`groupRoles.${index}.roleId`)}>
              <NativeSelect
                value={row.roleId}
                onChange={(event) => updateMapping(index, { roleId: event.target.value })}
              >
                <RoleOptionItems roles={roles} />
              </NativeSelect>
            </Field>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={t("removeMapping", { group: row.group })}
              onClick={() => setMappings((rows) => rows.filter((_row, at) => at !== index))}
            >
              <Trash2Icon aria-hidden="true" />
            </Button>
          </div>
        ))}
        <Button
          type="button"
          variant="outline"
          className="justify-self-start"
          onClick={() => setMappings((rows) => [...rows, { group: "", roleId: roles.at(-1)?.id ?? "" }])}
        >
          <PlusIcon aria-hidden="true" />
          {t("addMapping")}
        </Button>
      </fieldset>
      <Field label={t("defaultRole")} error={errorOf("defaultRoleId")}>
        <NativeSelect name="defaultRoleId" defaultValue={values.defaultRoleId ?? ""}>
          <option value="">{t("noDefaultRole")}</option>
          <RoleOptionItems roles={roles} />
        </NativeSelect>
      </Field>
      {(["allowedDomains", "ssoOnlyDomains"] as const).map((field) => (
        <Field key={field} label={t(field)} description={t(`${field}Hint`)} error={errorOf(field)}>
          <Textarea name={field} rows={3} defaultValue={values[field].join("\n")} />
        </Field>
      ))}
      <Field label={t("breakGlass")} description={t("breakGlassHint")} error={errorOf("breakGlassOwnerId")}>
        <NativeSelect name="breakGlassOwnerId" defaultValue={values.breakGlassOwnerId ?? ""}>
          <option value="">{t("breakGlassNone")}</option>
          {owners.map((owner) => (
            <option key={owner.id} value={owner.id}>
              {owner.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={t("requireVerifiedEmail")}>
        <Checkbox name="requireVerifiedEmail" defaultChecked={values.requireVerifiedEmail} />
      </Field>
      <Button type="submit" className="justify-self-start" disabled={isPending}>
        {t("save")}
      </Button>
    </form>
  );
}
