"use client";

import { ShieldCheckIcon, ShieldXIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";

import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TSignatureCheckResult } from "@/lib/webhooks/admin";

import { checkSignatureAction } from "../actions";

type StoredWebhook = { id: string; url: string; isActive: boolean };

type SignatureCheckFormProps = {
  webhooks: StoredWebhook[];
  initial?: { body: string; signature: string; webhookId: string | null };
};

export function SignatureCheckForm({ webhooks, initial }: SignatureCheckFormProps) {
  const t = useTranslations("webhooks.signatureCheck");
  const { fieldText, formText } = useActionErrorText("webhooks");
  const initialWebhookId =
    initial?.webhookId && webhooks.some((webhook) => webhook.id === initial.webhookId)
      ? initial.webhookId
      : (webhooks[0]?.id ?? "");
  const [localWebhookId, setLocalWebhookId] = useState(initialWebhookId);
  const [result, setResult] = useState<TSignatureCheckResult | null>(null);
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // The textarea's value, not the submitted form field: browsers send CRLF line endings in a
    // form submission, which would change the bytes being checked.
    const body = (event.currentTarget.elements.namedItem("body") as HTMLTextAreaElement).value;
    const signature = String(form.get("signature") ?? "");
    const secret = String(form.get("secret") ?? "");
    startTransition(async () => {
      const answer = await checkSignatureAction(
        localWebhookId ? { body, signature, localWebhookId } : { body, signature, secret: secret || undefined },
      );
      if (answer.ok) {
        setError(null);
        setResult(answer.data);
      } else {
        setResult(null);
        setError(answer.error);
      }
    });
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      <form onSubmit={handleSubmit} className="grid content-start gap-4" aria-label={t("formLabel")} noValidate>
        <FormError>
          {error &&
          !(
            fieldText(error.fieldErrors?.body) ||
            fieldText(error.fieldErrors?.signature) ||
            fieldText(error.fieldErrors?.secret)
          )
            ? formText(error)
            : null}
        </FormError>
        <Field label={t("body")} description={t("bodyHelp")} error={fieldText(error?.fieldErrors?.body)}>
          <Textarea
            name="body"
            rows={10}
            spellCheck={false}
            className="font-mono text-xs"
            defaultValue={initial?.body}
          />
        </Field>
        <Field label={t("signature")} description={t("signatureHelp")} error={fieldText(error?.fieldErrors?.signature)}>
          <Input
            name="signature"
            autoComplete="off"
            spellCheck={false}
            className="font-mono text-xs"
            defaultValue={initial?.signature}
          />
        </Field>
        <div className="grid gap-2">
          <Label htmlFor="signature-secret-source">{t("secretSource")}</Label>
          <NativeSelect
            id="signature-secret-source"
            value={localWebhookId}
            onChange={(event) => setLocalWebhookId(event.target.value)}
          >
            {webhooks.map((webhook) => (
              <option key={webhook.id} value={webhook.id}>
                {t(webhook.isActive ? "storedSecret" : "storedSecretInactive", { url: webhook.url })}
              </option>
            ))}
            <option value="">{t("pastedSecret")}</option>
          </NativeSelect>
        </div>
        {localWebhookId ? null : (
          <Field label={t("secret")} error={fieldText(error?.fieldErrors?.secret)}>
            <Input name="secret" type="password" autoComplete="off" spellCheck={false} className="font-mono text-xs" />
          </Field>
        )}
        <Button type="submit" className="w-fit" disabled={isPending}>
          {isPending ? <Spinner /> : null}
          {t("submit")}
        </Button>
      </form>
      <div aria-live="polite">{result ? <SignatureVerdict result={result} /> : null}</div>
    </div>
  );
}

function SignatureVerdict({ result }: { result: TSignatureCheckResult }) {
  const t = useTranslations("webhooks.signatureCheck");
  if (result.isValid) {
    return (
      <div
        role="status"
        className="flex items-start gap-3 rounded-lg border border-success/30 bg-success-soft p-4 text-success"
      >
        <ShieldCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div className="grid gap-1">
          <p className="font-semibold">{t("valid")}</p>
          <p className="text-sm">{t("validDescription")}</p>
        </div>
      </div>
    );
  }
  return (
    <div
      role="status"
      className="flex items-start gap-3 rounded-lg border border-destructive/30 bg-danger-soft p-4 text-destructive"
    >
      <ShieldXIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="grid min-w-0 gap-2">
        <p className="font-semibold">{t("invalid")}</p>
        <p className="text-sm">{t(`reasons.${result.reason}`, { length: result.signatureLength ?? 0 })}</p>
        {result.bodyHint ? <p className="text-sm">{t(`hints.${result.bodyHint}`)}</p> : null}
        {result.expectedSignature ? (
          <p className="text-sm">
            {t("expected")} <code className="font-mono text-xs break-all">{result.expectedSignature}</code>
          </p>
        ) : null}
      </div>
    </div>
  );
}
