"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TPosConfigFieldName, TPosConfigView } from "@/lib/pos/admin-config";

import { removePosOverrideAction, savePosConfigAction, savePosTenantConfigAction } from "../actions";
import { PosScreenPreview } from "./pos-screen-preview";

type PosConfigFormProps = {
  /** Set: the tenant's default configuration (no seller). */
  tenantId?: string;
  sellerId?: string;
  /** Set: this PDV's override, whose empty fields fall back to `inherited` (the seller's values). */
  posId?: string;
  initial: TPosConfigView;
  inherited?: TPosConfigView;
  /** Where `inherited` comes from: the seller (a PDV override) or the tenant's default (a seller's row). */
  inheritedFrom?: "seller" | "tenant";
  hasOverride?: boolean;
};

const textFields = [
  { name: "empresaGateway", maxLength: 60 },
  { name: "enderecoGateway", maxLength: 260, placeholder: "gateway.example.com:443" },
  { name: "cnpjCpf", maxLength: 20 },
  { name: "comExterna", maxLength: 20 },
  { name: "cnpjAutomacao", maxLength: 20 },
  { name: "cnpjFacilitador", maxLength: 20 },
] as const satisfies readonly { name: TPosConfigFieldName; maxLength: number; placeholder?: string }[];

type TTokenAction = "keep" | "replace" | "clear";

export function PosConfigForm({
  tenantId,
  sellerId = "",
  posId,
  initial,
  inherited,
  inheritedFrom = "seller",
  hasOverride = false,
}: PosConfigFormProps) {
  const t = useTranslations("pos.config");
  const { fieldText, formText } = useActionErrorText("pos");
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();
  const [tokenAction, setTokenAction] = useState<TTokenAction>("keep");
  const [branding, setBranding] = useState({
    logoUrl: initial.logoUrl ?? "",
    primaryColor: initial.primaryColor ?? "",
    secondaryColor: initial.secondaryColor ?? "",
  });
  const idPrefix = tenantId ? "tenant" : posId ? `pos-${posId}` : "seller";
  const fallback = (name: TPosConfigFieldName) =>
    inherited?.[name]
      ? t(inheritedFrom === "tenant" ? "inheritsDefault" : "inherits", { value: inherited[name] })
      : undefined;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const fields = {
      ...Object.fromEntries(textFields.map((field) => [field.name, text(field.name)])),
      ...branding,
      tokenRegistroTls:
        tokenAction === "replace"
          ? ({ action: "replace", value: text("tokenRegistroTls") } as const)
          : ({ action: tokenAction } as const),
    };
    startTransition(async () => {
      const result = tenantId
        ? await savePosTenantConfigAction({ tenantId, ...fields })
        : await savePosConfigAction({ sellerId, posId, ...fields });
      if (!result.ok) return setError(result.error);
      setError(null);
      setTokenAction("keep");
      toast.success(t("saved"));
    });
  }

  const errorOf = (name: string) => fieldText(error?.fieldErrors?.[name]);
  const hasFieldError = Boolean(error?.fieldErrors && Object.keys(error.fieldErrors).some((key) => errorOf(key)));
  const preview = {
    logoUrl: branding.logoUrl || inherited?.logoUrl || null,
    primaryColor: branding.primaryColor || inherited?.primaryColor || null,
    secondaryColor: branding.secondaryColor || inherited?.secondaryColor || null,
  };

  return (
    <form onSubmit={handleSubmit} className="grid gap-6 lg:grid-cols-[1fr_auto]" noValidate>
      <div className="grid min-w-0 gap-4">
        <FormError>{error && !hasFieldError ? formText(error) : null}</FormError>
        <div className="grid gap-4 sm:grid-cols-2">
          {textFields.map((field) => (
            <Field
              key={field.name}
              id={`${idPrefix}-${field.name}`}
              label={t(`fields.${field.name}`)}
              description={fallback(field.name)}
              error={errorOf(field.name)}
            >
              <Input
                name={field.name}
                defaultValue={initial[field.name] ?? ""}
                maxLength={field.maxLength}
                autoComplete="off"
                placeholder={"placeholder" in field ? field.placeholder : undefined}
                className="font-mono text-sm"
              />
            </Field>
          ))}
        </div>
        <fieldset className="grid gap-3 rounded-md border p-3">
          <legend className="px-1 text-sm font-medium">{t("fields.tokenRegistroTls")}</legend>
          <p className="text-sm text-muted-foreground">
            {initial.hasTokenRegistroTls
              ? t("token.set")
              : inherited?.hasTokenRegistroTls
                ? t(inheritedFrom === "tenant" ? "token.inheritedDefault" : "token.inherited")
                : t("token.unset")}
          </p>
          <Field id={`${idPrefix}-token-action`} label={t("token.action")}>
            <NativeSelect value={tokenAction} onChange={(event) => setTokenAction(event.target.value as TTokenAction)}>
              <option value="keep">{t("token.keep")}</option>
              <option value="replace">{t("token.replace")}</option>
              {initial.hasTokenRegistroTls ? <option value="clear">{t("token.clear")}</option> : null}
            </NativeSelect>
          </Field>
          {tokenAction === "replace" ? (
            <Field id={`${idPrefix}-token`} label={t("token.new")} error={errorOf("tokenRegistroTls.value")}>
              <Input name="tokenRegistroTls" type="password" autoComplete="new-password" maxLength={2_000} />
            </Field>
          ) : null}
        </fieldset>
        <fieldset className="grid gap-4 rounded-md border p-3 sm:grid-cols-2">
          <legend className="px-1 text-sm font-medium">{t("branding")}</legend>
          <Field
            id={`${idPrefix}-logoUrl`}
            label={t("fields.logoUrl")}
            description={fallback("logoUrl")}
            error={errorOf("logoUrl")}
            className="sm:col-span-2"
          >
            <Input
              type="url"
              inputMode="url"
              placeholder="https://"
              value={branding.logoUrl}
              maxLength={500}
              onChange={(event) => setBranding({ ...branding, logoUrl: event.target.value })}
            />
          </Field>
          {(["primaryColor", "secondaryColor"] as const).map((name) => (
            <div key={name} className="flex min-w-0 items-start gap-2">
              <input
                type="color"
                aria-label={t("picker", { field: t(`fields.${name}`) })}
                value={/^#[0-9a-fA-F]{6}$/.test(branding[name]) ? branding[name] : "#000000"}
                onChange={(event) => setBranding({ ...branding, [name]: event.target.value })}
                className="mt-6 h-9 w-12 shrink-0 cursor-pointer rounded-md border bg-background p-1"
              />
              <Field
                id={`${idPrefix}-${name}`}
                label={t(`fields.${name}`)}
                description={fallback(name)}
                error={errorOf(name)}
                className="min-w-0 flex-1"
              >
                <Input
                  value={branding[name]}
                  placeholder="#0a7a3d"
                  maxLength={7}
                  onChange={(event) => setBranding({ ...branding, [name]: event.target.value })}
                  className="font-mono text-sm"
                />
              </Field>
            </div>
          ))}
        </fieldset>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isPending}>
            {isPending ? <Spinner /> : null}
            {posId ? t("saveOverride") : t("save")}
          </Button>
          {posId && hasOverride ? (
            <ConfirmActionButton
              trigger={
                <Button type="button" variant="outline">
                  {t("removeOverride.open")}
                </Button>
              }
              title={t("removeOverride.title", { posId })}
              description={t("removeOverride.description")}
              confirmLabel={t("removeOverride.confirm")}
              variant="destructive"
              action={() => removePosOverrideAction({ posId })}
              successMessage={t("removeOverride.done")}
              errorText={formText}
            />
          ) : null}
        </div>
      </div>
      <PosScreenPreview {...preview} />
    </form>
  );
}
