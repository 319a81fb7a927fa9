"use client";

import { useTranslations } from "next-intl";

import { CopyButton } from "@/components/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

// Shown once, right after it is made: only a hash (keys) or a sealed copy (secrets) is kept.
export function PosSecretOnce({ label, value, instructions }: { label: string; value: string; instructions: string }) {
  const t = useTranslations("pos.secretOnce");
  return (
    <div className="grid gap-3">
      <p className="text-sm">{instructions}</p>
      <div className="flex flex-wrap items-end gap-2">
        <Field label={label} className="min-w-0 flex-1">
          <Input
            readOnly
            value={value}
            className="font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
        </Field>
        <CopyButton value={value} label={t("copy")} isLabelVisible size="default" />
      </div>
      <p className="text-sm text-muted-foreground">{t("warning")}</p>
    </div>
  );
}
