"use client";

import { useTranslations } from "next-intl";

import { CopyButton } from "@/components/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";

// Shown once, right after registration or rotation, and only for a receiver elsewhere: the gateway never shows it
// again. For this app's own receiver (`secret` null) the app keeps the encrypted copy and no person sees it.
export function WebhookSecretOnce({ secret, url }: { secret: string | null; url: string }) {
  const t = useTranslations("webhooks.secret");
  if (secret === null)
    return (
      <div className="grid gap-3">
        <p className="text-sm">{t("heldByApp")}</p>
        <Field label={t("url")}>
          <Textarea readOnly value={url} rows={2} className="min-h-0 resize-none font-mono text-xs break-all" />
        </Field>
      </div>
    );
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
