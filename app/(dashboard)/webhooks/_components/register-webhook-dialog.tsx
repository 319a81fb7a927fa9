"use client";

import { PlusIcon } from "lucide-react";
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
import { type TWebhookEvent, webhookEvents } from "@/lib/webhooks/event-names";

import { registerWebhookAction } from "../actions";
import { EventCheckboxes } from "./event-checkboxes";
import { WebhookSecretOnce } from "./webhook-secret-once";

export function RegisterWebhookDialog({ defaultUrlHint }: { defaultUrlHint: string }) {
  const t = useTranslations("webhooks.register");
  const tForm = useTranslations("webhooks.form");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText("webhooks");
  const [isOpen, setIsOpen] = useState(false);
  const [events, setEvents] = useState<TWebhookEvent[]>([...webhookEvents]);
  const [error, setError] = useState<TActionError | null>(null);
  const [created, setCreated] = useState<{ url: string; secret: string | null } | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleOpenChange(open: boolean) {
    // Closing drops the secret from memory: it is never shown again.
    setIsOpen(open);
    if (!open) {
      setError(null);
      setCreated(null);
      setEvents([...webhookEvents]);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const url = String(new FormData(event.currentTarget).get("url") ?? "");
    startTransition(async () => {
      const result = await registerWebhookAction({ url, events });
      if (result.ok) {
        setError(null);
        setCreated({ url: result.data.url, secret: result.data.secret });
      } else {
        setError(result.error);
      }
    });
  }

  return (
    <Dialog open={isOpen} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden="true" />
          {t("open")}
        </Button>
      </DialogTrigger>
      <DialogContent onInteractOutside={(event) => created && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{created ? t("createdTitle") : t("title")}</DialogTitle>
          <DialogDescription>{created ? t("createdDescription") : t("description")}</DialogDescription>
        </DialogHeader>
        {created ? (
          <>
            <WebhookSecretOnce secret={created.secret} url={created.url} />
            <DialogFooter>
              <Button type="button" onClick={() => handleOpenChange(false)}>
                {created.secret === null ? tCommon("close") : t("done")}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
            <FormError>
              {error && !(fieldText(error.fieldErrors?.url) || fieldText(error.fieldErrors?.events))
                ? formText(error)
                : null}
            </FormError>
            <Field
              label={tForm("url")}
              description={tForm("urlDefault", { url: defaultUrlHint })}
              error={fieldText(error?.fieldErrors?.url)}
            >
              <Input
                name="url"
                type="url"
                inputMode="url"
                autoComplete="off"
                placeholder={defaultUrlHint}
                maxLength={500}
              />
            </Field>
            <EventCheckboxes value={events} onChange={setEvents} error={fieldText(error?.fieldErrors?.events)} />
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
