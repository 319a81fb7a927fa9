"use client";

import { useTranslations } from "next-intl";

import { CopyButton } from "@/components/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";

// Shown once, right after registration or rotation: the gateway never shows it again, and the
// app keeps only the encrypted copy its receiver needs.
export function WebhookSecretOnce({ secret, url }: { secret: string; url: string }) {
  const t = useTranslations("webhooks.secret");
  return (
    <div className="grid gap-3">
      <p className="text-sm">{t("instructions")}</p>
      <Field label={t("url")}>
        {/* Wrapped rather than a one-line input: the receiver URL is long and must be read whole. */}
        <Textarea readOnly value={url} rows={2} className="min-h-0 resize-none font-mono text-xs break-all" />
      </Field>
      <div className="flex items-end gap-2">
        <Field label={t("label")} className="flex-1">
          <Input
            readOnly
            value={secret}
            className="font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
        </Field>
        <CopyButton value={secret} label={t("copy")} isLabelVisible size="default" />
      </div>
      <p className="text-sm text-muted-foreground">{t("warning")}</p>
    </div>
  );
}
