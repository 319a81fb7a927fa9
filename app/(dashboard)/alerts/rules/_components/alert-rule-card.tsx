"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TAlertRuleKey } from "@/lib/alerts/rule-keys";
import { formatDateTime } from "@/lib/format/date-time";
import { resolveLocale } from "@/lib/i18n/config";

import { muteAlertRuleAction, saveAlertRuleAction } from "../../actions";

type TLimits = { min: number; max: number; defaultValue: number };

type TAlertRuleCardProps = {
  rule: {
    key: TAlertRuleKey;
    thresholds: Record<string, number>;
    limits: Record<string, TLimits>;
    isDefault: boolean;
    mutedUntil: string | null;
    isMutedForever: boolean;
  };
};

export function AlertRuleCard({ rule }: TAlertRuleCardProps) {
  const t = useTranslations("alerts");
  const locale = resolveLocale(useLocale());
  const { fieldText, formText } = useActionErrorText("alerts");
  const router = useRouter();
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();
  const titleId = `rule-${rule.key}-title`;

  function run(task: () => Promise<{ ok: true } | { ok: false; error: TActionError }>, done: string) {
    startTransition(async () => {
      const result = await task();
      setError(result.ok ? null : result.error);
      if (!result.ok) return void toast.error(formText(result.error));
      toast.success(done);
      router.refresh();
    });
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const thresholds = Object.fromEntries(
      Object.keys(rule.limits).map((name) => {
        const raw = String(form.get(name) ?? "").trim();
        return [name, raw === "" ? Number.NaN : Number(raw)];
      }),
    );
    run(() => saveAlertRuleAction({ key: rule.key, thresholds }), t("rulesPage.saved"));
  }

  const muteState = rule.isMutedForever
    ? t("rulesPage.mutedForever")
    : rule.mutedUntil
      ? t("rulesPage.mutedUntil", { at: formatDateTime(rule.mutedUntil, locale) })
      : null;

  return (
    <Card className="min-w-0" role="region" aria-labelledby={titleId}>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle id={titleId}>{t(`rules.${rule.key}.title`)}</CardTitle>
          <Badge tone={rule.isDefault ? "neutral" : "info"}>
            {rule.isDefault ? t("rulesPage.defaults") : t("rulesPage.customized")}
          </Badge>
          {muteState ? <Badge tone="warning">{muteState}</Badge> : null}
        </div>
        <CardDescription>{t(`rules.${rule.key}.description`)}</CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-4">
        <form onSubmit={save} className="grid gap-4" noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            {Object.entries(rule.limits).map(([name, limits]) => (
              <Field
                key={name}
                label={t(`rules.${rule.key}.thresholds.${name}` as never)}
                description={t("rulesPage.range", limits)}
                error={fieldText(error?.fieldErrors?.[name])}
              >
                <Input
                  name={name}
                  type="number"
                  inputMode="numeric"
                  min={limits.min}
                  max={limits.max}
                  step={1}
                  defaultValue={rule.thresholds[name]}
                  required
                />
              </Field>
            ))}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={isPending}>
              {isPending ? <Spinner /> : null}
              {isPending ? t("rulesPage.saving") : t("rulesPage.save")}
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={isPending || rule.isDefault}
              onClick={() =>
                run(() => saveAlertRuleAction({ key: rule.key, thresholds: null }), t("rulesPage.resetDone"))
              }
            >
              {t("rulesPage.reset")}
            </Button>
          </div>
        </form>
        <div className="flex flex-wrap items-end gap-2">
          <Field label={t("rulesPage.mute")} className="w-full sm:w-72">
            <NativeSelect
              value=""
              disabled={isPending}
              onChange={(event) => {
                const muteFor = event.target.value as "1h" | "24h" | "forever" | "off" | "";
                if (muteFor) run(() => muteAlertRuleAction({ key: rule.key, muteFor }), t("rulesPage.muteDone"));
              }}
            >
              <option value="" disabled>
                {t("rulesPage.mute")}…
              </option>
              <option value="1h">{t("rulesPage.mute1h")}</option>
              <option value="24h">{t("rulesPage.mute24h")}</option>
              <option value="forever">{t("rulesPage.muteForever")}</option>
              {muteState ? <option value="off">{t("rulesPage.unmute")}</option> : null}
            </NativeSelect>
          </Field>
        </div>
      </CardContent>
    </Card>
  );
}
