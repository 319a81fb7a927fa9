"use client";

import { PlusIcon, RefreshCwIcon } from "lucide-react";
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
import { Spinner } from "@/components/ui/spinner";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { createPosApiKeyAction, rotatePosApiKeyAction } from "../actions";
import { PosSecretOnce } from "./pos-secret-once";

type CreatePosKeyDialogProps = {
  /** With a key: "rotate", a new key in the same tenant; without: a key for a new tenant. */
  rotate?: { keyId: string; name: string };
};

export function CreatePosKeyDialog({ rotate }: CreatePosKeyDialogProps) {
  const t = useTranslations("pos.keys");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText("pos");
  const [isOpen, setIsOpen] = useState(false);
  const [error, setError] = useState<TActionError | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const mode = rotate ? "rotate" : "create";

  function handleOpenChange(open: boolean) {
    // Closing drops the key from memory: it is never shown again.
    setIsOpen(open);
    if (!open) {
      setError(null);
      setCreated(null);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { name: String(form.get("name") ?? ""), expiresOn: String(form.get("expiresOn") ?? "") };
    startTransition(async () => {
      const result = rotate
        ? await rotatePosApiKeyAction({ ...input, keyId: rotate.keyId })
        : await createPosApiKeyAction(input);
      if (result.ok) {
        setError(null);
        setCreated(result.data.key);
      } else {
        setError(result.error);
      }
    });
  }

  const nameError = fieldText(error?.fieldErrors?.name);
  const expiryError = fieldText(error?.fieldErrors?.expiresOn);
  return (
    <Dialog open={isOpen} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        {rotate ? (
          <Button variant="outline" size="sm">
            <RefreshCwIcon aria-hidden="true" />
            {t("rotate.open")}
          </Button>
        ) : (
          <Button>
            <PlusIcon aria-hidden="true" />
            {t("create.open")}
          </Button>
        )}
      </DialogTrigger>
      <DialogContent onInteractOutside={(event) => created && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{created ? t("createdTitle") : t(`${mode}.title`)}</DialogTitle>
          <DialogDescription>{created ? t("createdDescription") : t(`${mode}.description`)}</DialogDescription>
        </DialogHeader>
        {created ? (
          <>
            <PosSecretOnce label={t("keyLabel")} value={created} instructions={t("keyInstructions")} />
            <DialogFooter>
              <Button type="button" onClick={() => handleOpenChange(false)}>
                {t("done")}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
            <FormError>{error && !nameError && !expiryError ? formText(error) : null}</FormError>
            <Field label={t("form.name")} error={nameError} required>
              <Input name="name" maxLength={80} autoComplete="off" defaultValue={rotate ? `${rotate.name}` : ""} />
            </Field>
            <Field label={t("form.expiresOn")} description={t("form.expiresOnHint")} error={expiryError}>
              <Input name="expiresOn" type="date" />
            </Field>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => handleOpenChange(false)}>
                {tCommon("cancel")}
              </Button>
              <Button type="submit" disabled={isPending}>
                {isPending ? <Spinner /> : null}
                {t(`${mode}.submit`)}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
