"use client";

import { DownloadIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TTwoFactorEnrolment } from "@/lib/auth/two-factor";
import { confirmTwoFactorAction } from "../actions";
import { DisableTwoFactorForm } from "./disable-two-factor-form";

// Turning two-factor on renews this browser's session cookie, and a cookie written by a server action makes Next.js
// render the page again, now as "two-factor is on". The codes, shown once, live here, in the one component both
// renders keep mounted, so that render does not take them away.
export function TwoFactorPanel({
  description,
  enrolment,
  canCancel,
}: {
  description: string;
  // null once two-factor is on: the panel offers to turn it off.
  enrolment: TTwoFactorEnrolment | null;
  canCancel: boolean;
}) {
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} />;
  return (
    <>
      <p className="mb-6 text-sm text-muted-foreground">{description}</p>
      {enrolment ? (
        <EnrolTwoFactorForm enrolment={enrolment} canCancel={canCancel} onEnabled={setRecoveryCodes} />
      ) : (
        <DisableTwoFactorForm />
      )}
    </>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const t = useTranslations("account.security");
  const text = `${codes.join("\n")}\n`;
  return (
    <div className="grid gap-4">
      <p className="text-sm">{t("recoveryCodesIntro")}</p>
      <ul aria-label={t("recoveryCodes")} className="grid grid-cols-2 gap-2 rounded-md border bg-muted p-4 font-mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton value={text} label={t("copyCodes")} isLabelVisible />
        <Button asChild variant="outline">
          <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt">
            <DownloadIcon aria-hidden="true" />
            {t("downloadCodes")}
          </a>
        </Button>
      </div>
      <Button onClick={() => window.location.assign("/")}>{t("done")}</Button>
    </div>
  );
}

function EnrolTwoFactorForm({
  enrolment,
  canCancel,
  onEnabled,
}: {
  enrolment: TTwoFactorEnrolment;
  canCancel: boolean;
  onEnabled: (recoveryCodes: string[]) => void;
}) {
  const t = useTranslations("account.security");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText("account.security");
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    startTransition(async () => {
      const result = await confirmTwoFactorAction({ enrolmentToken: enrolment.enrolmentToken, code });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      onEnabled(result.data.recoveryCodes);
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <ol className="grid list-decimal gap-1 pl-5 text-sm">
        <li>{t("stepScan")}</li>
        <li>{t("stepConfirm")}</li>
      </ol>
      <div className="grid justify-items-center gap-2">
        {/* A data URL drawn on the server: nothing for next/image to optimise. */}
        <img
          src={enrolment.qrDataUrl}
          alt={t("qrAlt")}
          width={224}
          height={224}
          className="size-56 rounded-md border bg-white p-2"
        />
        <span className="text-xs text-muted-foreground">{t("secretLabel")}</span>
        <div className="flex items-center gap-2">
          <code className="font-mono text-sm break-all" data-testid="totp-secret">
            {enrolment.secret}
          </code>
          <CopyButton value={enrolment.secret} label={t("copySecret")} />
        </div>
      </div>
      <FormError>{error && !error.fieldErrors ? formText(error) : null}</FormError>
      <Field label={t("code")} required error={fieldText(error?.fieldErrors?.code)}>
        <Input name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />
      </Field>
      <div className="flex justify-end gap-2">
        {canCancel ? (
          <Button asChild variant="outline">
            <Link href="/">{tCommon("cancel")}</Link>
          </Button>
        ) : null}
        <Button type="submit" disabled={isPending}>
          {t("enable")}
        </Button>
      </div>
    </form>
  );
}
