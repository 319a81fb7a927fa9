"use client";

import { startRegistration } from "@simplewebauthn/browser";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TPasskeySummary } from "@/lib/auth/passkeys";
import { formatDate } from "@/lib/format/date-time";
import { resolveLocale } from "@/lib/i18n/config";
import {
  finishPasskeyRegistrationAction,
  removePasskeyAction,
  renamePasskeyAction,
  startPasskeyRegistrationAction,
} from "../actions";

const namespace = "account.passkeys";

export function PasskeysPanel({ passkeys, isAvailable }: { passkeys: TPasskeySummary[]; isAvailable: boolean }) {
  const t = useTranslations(namespace);
  if (!isAvailable) return <p className="text-sm text-muted-foreground">{t("unavailable")}</p>;
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">{t("description")}</p>
      {passkeys.length === 0 ? (
        <p className="text-sm">{t("empty")}</p>
      ) : (
        <ul aria-label={t("listLabel")} className="grid gap-3">
          {passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      <AddPasskeyForm />
    </div>
  );
}

function PasskeyItem({ passkey }: { passkey: TPasskeySummary }) {
  const t = useTranslations(namespace);
  const locale = resolveLocale(useLocale());
  const router = useRouter();
  const { formText } = useActionErrorText(namespace);
  const [isRenaming, setIsRenaming] = useState(false);
  const [password, setPassword] = useState("");
  return (
    <li aria-label={passkey.name} className="grid gap-2 rounded-md border p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-all">{passkey.name}</span>
        {passkey.isBackedUp ? <Badge tone="neutral">{t("synced")}</Badge> : null}
      </div>
      <p className="text-xs text-muted-foreground">
        {t("added", { date: formatDate(passkey.createdAt, locale) })} ·{" "}
        {passkey.lastUsedAt ? t("lastUsed", { date: formatDate(passkey.lastUsedAt, locale) }) : t("neverUsed")}
      </p>
      {isRenaming ? (
        <RenamePasskeyForm passkey={passkey} onDone={() => setIsRenaming(false)} />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => setIsRenaming(true)}>
            {t("rename")}
          </Button>
          <ConfirmActionButton
            trigger={
              <Button type="button" variant="outline" size="sm">
                {t("remove")}
              </Button>
            }
            title={t("removeTitle", { name: passkey.name })}
            description={t("removeDescription")}
            confirmLabel={t("remove")}
            variant="destructive"
            errorDisplay="inline"
            errorText={formText}
            successMessage={t("removed")}
            onOpenChange={() => setPassword("")}
            action={() => removePasskeyAction({ id: passkey.id, password })}
            onSuccess={() => router.refresh()}
          >
            <Field label={t("password")} required>
              <Input
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            </Field>
          </ConfirmActionButton>
        </div>
      )}
    </li>
  );
}

function RenamePasskeyForm({ passkey, onDone }: { passkey: TPasskeySummary; onDone: () => void }) {
  const t = useTranslations(namespace);
  const tCommon = useTranslations("common");
  const router = useRouter();
  const { fieldText, formText } = useActionErrorText(namespace);
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    startTransition(async () => {
      const result = await renamePasskeyAction({ id: passkey.id, name });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      toast.success(t("renamed"));
      onDone();
      router.refresh();
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-2" noValidate>
      <FormError>{error && !error.fieldErrors ? formText(error) : null}</FormError>
      <Field label={t("renameLabel", { name: passkey.name })} required error={fieldText(error?.fieldErrors?.name)}>
        <Input name="name" defaultValue={passkey.name} maxLength={60} autoFocus required />
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          {tCommon("cancel")}
        </Button>
        <Button type="submit" size="sm" disabled={isPending}>
          {t("save")}
        </Button>
      </div>
    </form>
  );
}

function AddPasskeyForm() {
  const t = useTranslations(namespace);
  const router = useRouter();
  const { fieldText, formText } = useActionErrorText(namespace);
  const [error, setError] = useState<TActionError | null>(null);
  const [ceremonyError, setCeremonyError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get("name") ?? "");
    const password = String(data.get("password") ?? "");
    setError(null);
    setCeremonyError(null);
    startTransition(async () => {
      const started = await startPasskeyRegistrationAction({ password });
      if (!started.ok) {
        setError(started.error);
        return;
      }
      const response = await startRegistration({ optionsJSON: started.data }).catch(() => null);
      if (!response) {
        setCeremonyError(t("cancelled"));
        return;
      }
      const finished = await finishPasskeyRegistrationAction({ name, response });
      if (!finished.ok) {
        setError(finished.error);
        return;
      }
      form.reset();
      toast.success(t("addedToast"));
      router.refresh();
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{ceremonyError ?? (error && !error.fieldErrors ? formText(error) : null)}</FormError>
      <Field label={t("name")} description={t("nameHint")} required error={fieldText(error?.fieldErrors?.name)}>
        <Input name="name" maxLength={60} required />
      </Field>
      <Field
        label={t("password")}
        description={t("passwordHint")}
        required
        error={fieldText(error?.fieldErrors?.password)}
      >
        <Input name="password" type="password" autoComplete="current-password" required />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" disabled={isPending}>
          {t("add")}
        </Button>
      </div>
    </form>
  );
}
