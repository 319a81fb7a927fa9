"use client";

import { ShieldCheckIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";

import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { setSellerTokenVerificationAction } from "../actions";
import { PosSecretOnce } from "./pos-secret-once";

type TMode = "HS256" | "PEM" | "JWKS";

/** How the company's seller tokens (JWT) are verified for this key: a shared secret, a public key or a JWKS URL. */
export function SellerTokenDialog({ keyId }: { keyId: string }) {
  const t = useTranslations("pos.keys.verification");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText("pos");
  const [isOpen, setIsOpen] = useState(false);
  const [mode, setMode] = useState<TMode>("HS256");
  const [error, setError] = useState<TActionError | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(false);
  const [isPending, startTransition] = useTransition();

  function handleOpenChange(open: boolean) {
    setIsOpen(open);
    if (!open) {
      setError(null);
      setSecret(null);
      setIsSaved(false);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const algorithm = String(form.get("algorithm") ?? "RS256") as "RS256" | "ES256";
    const input =
      mode === "HS256"
        ? ({ keyId, mode } as const)
        : mode === "PEM"
          ? ({ keyId, mode, algorithm, publicKey: String(form.get("publicKey") ?? "") } as const)
          : ({ keyId, mode, algorithm, jwksUrl: String(form.get("jwksUrl") ?? "") } as const);
    startTransition(async () => {
      const result = await setSellerTokenVerificationAction(input);
      if (!result.ok) return setError(result.error);
      setError(null);
      setIsSaved(true);
      setSecret(result.data.secret);
    });
  }

  const keyError = fieldText(error?.fieldErrors?.publicKey) ?? fieldText(error?.fieldErrors?.jwksUrl);
  return (
    <Dialog open={isOpen} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <ShieldCheckIcon aria-hidden="true" />
          {t("open")}
        </Button>
      </DialogTrigger>
      <DialogContent onInteractOutside={(event) => secret && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription>{t("description")}</DialogDescription>
        </DialogHeader>
        {isSaved ? (
          <>
            {secret ? (
              <PosSecretOnce label={t("secretLabel")} value={secret} instructions={t("secretInstructions")} />
            ) : (
              <p className="text-sm">{t("saved")}</p>
            )}
            <DialogFooter>
              <Button type="button" onClick={() => handleOpenChange(false)}>
                {tCommon("close")}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
            <FormError>{error && !keyError ? formText(error) : null}</FormError>
            <Field label={t("mode")}>
              <NativeSelect value={mode} onChange={(event) => setMode(event.target.value as TMode)}>
                {(["HS256", "PEM", "JWKS"] as const).map((value) => (
                  <option key={value} value={value}>
                    {t(`modes.${value}`)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {mode === "HS256" ? (
              <p className="text-sm text-muted-foreground">{t("hs256Hint")}</p>
            ) : (
              <Field label={t("algorithm")}>
                <NativeSelect name="algorithm" defaultValue="RS256">
                  <option value="RS256">RS256</option>
                  <option value="ES256">ES256</option>
                </NativeSelect>
              </Field>
            )}
            {mode === "PEM" ? (
              <Field label={t("publicKey")} error={keyError}>
                <Textarea
                  name="publicKey"
                  rows={6}
                  className="font-mono text-xs"
                  placeholder="-----BEGIN PUBLIC KEY-----"
                />
              </Field>
            ) : null}
            {mode === "JWKS" ? (
              <Field label={t("jwksUrl")} error={keyError}>
                <Input name="jwksUrl" type="url" inputMode="url" placeholder="https://…/.well-known/jwks.json" />
              </Field>
            ) : null}
            <p className="text-sm text-muted-foreground">{t("replaces")}</p>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => handleOpenChange(false)}>
                {tCommon("cancel")}
              </Button>
              <Button type="submit" disabled={isPending}>
                {isPending ? <Spinner /> : null}
                {t("submit")}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
