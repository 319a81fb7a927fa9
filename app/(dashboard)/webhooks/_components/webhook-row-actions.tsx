"use client";

import { MoreHorizontalIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { type TWebhookEvent, webhookEvents } from "@/lib/webhooks/event-names";
import { rotationOverlapMinutes } from "@/lib/webhooks/schemas";

import { deactivateWebhookAction, startSecretRotationAction, updateWebhookAction } from "../actions";
import { EventCheckboxes } from "./event-checkboxes";
import { WebhookSecretOnce } from "./webhook-secret-once";

export type TWebhookRowActionsProps = {
  webhook: {
    upstreamId: string;
    localId: string | null;
    url: string;
    events: string[];
    isActive: boolean;
    isRetiring: boolean;
  };
};

type OpenDialog = "edit" | "rotate" | "deactivate";

function knownEvents(events: string[]): TWebhookEvent[] {
  return webhookEvents.filter((event) => events.includes(event));
}

export function WebhookRowActions({ webhook }: TWebhookRowActionsProps) {
  const t = useTranslations("webhooks.actions");
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const close = () => setDialog(null);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon-sm" aria-label={t("menu", { url: webhook.url })}>
            <MoreHorizontalIcon aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => setDialog("edit")}>{t("edit.label")}</DropdownMenuItem>
          {webhook.isActive && !webhook.isRetiring ? (
            <DropdownMenuItem onSelect={() => setDialog("rotate")}>{t("rotate.label")}</DropdownMenuItem>
          ) : null}
          {webhook.localId ? (
            <DropdownMenuItem asChild>
              <Link href={`/webhooks/deliveries?webhookId=${webhook.localId}`}>{t("deliveries")}</Link>
            </DropdownMenuItem>
          ) : null}
          {webhook.isActive ? (
            <DropdownMenuItem variant="destructive" onSelect={() => setDialog("deactivate")}>
              {t("deactivate.label")}
            </DropdownMenuItem>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      {dialog === "edit" ? <EditWebhookDialog webhook={webhook} onClose={close} /> : null}
      {dialog === "rotate" ? <RotateSecretDialog webhook={webhook} onClose={close} /> : null}
      <DeactivateWebhookDialog webhook={webhook} isOpen={dialog === "deactivate"} onClose={close} />
    </>
  );
}

type DialogProps = { webhook: TWebhookRowActionsProps["webhook"]; onClose: () => void };

function EditWebhookDialog({ webhook, onClose }: DialogProps) {
  const t = useTranslations("webhooks.actions.edit");
  const tForm = useTranslations("webhooks.form");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText("webhooks");
  const [events, setEvents] = useState<TWebhookEvent[]>(knownEvents(webhook.events));
  const [isActive, setIsActive] = useState(webhook.isActive);
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const url = String(new FormData(event.currentTarget).get("url") ?? "");
    startTransition(async () => {
      const result = await updateWebhookAction({ webhookId: webhook.upstreamId, url, events, isActive });
      if (result.ok) {
        toast.success(t("done"));
        onClose();
      } else {
        setError(result.error);
      }
    });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription>{t("description")}</DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
          <FormError>
            {error && !(fieldText(error.fieldErrors?.url) || fieldText(error.fieldErrors?.events))
              ? formText(error)
              : null}
          </FormError>
          <Field label={tForm("url")} required error={fieldText(error?.fieldErrors?.url)}>
            <Input
              name="url"
              type="url"
              inputMode="url"
              autoComplete="off"
              required
              maxLength={500}
              defaultValue={webhook.url}
            />
          </Field>
          <EventCheckboxes value={events} onChange={setEvents} error={fieldText(error?.fieldErrors?.events)} />
          <div className="flex items-center gap-2">
            <Checkbox
              id="webhook-active"
              checked={isActive}
              onCheckedChange={(checked) => setIsActive(checked === true)}
            />
            <Label htmlFor="webhook-active" className="font-normal">
              {tForm("isActive")}
            </Label>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={isPending} onClick={onClose}>
              {tCommon("cancel")}
            </Button>
            <Button type="submit" disabled={isPending}>
              {isPending ? <Spinner /> : null}
              {t("submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function RotateSecretDialog({ webhook, onClose }: DialogProps) {
  const t = useTranslations("webhooks.actions.rotate");
  const tCommon = useTranslations("common");
  const { formText } = useActionErrorText("webhooks");
  const [overlapMinutes, setOverlapMinutes] = useState<number>(rotationOverlapMinutes[1]);
  const [error, setError] = useState<TActionError | null>(null);
  const [created, setCreated] = useState<{ url: string; secret: string | null } | null>(null);
  const [isPending, startTransition] = useTransition();

  function rotate() {
    startTransition(async () => {
      const result = await startSecretRotationAction({ webhookId: webhook.upstreamId, overlapMinutes });
      if (result.ok) setCreated({ url: result.data.url, secret: result.data.secret });
      else setError(result.error);
    });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !isPending && onClose()}>
      <DialogContent onInteractOutside={(event) => created && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{created ? t("createdTitle") : t("title")}</DialogTitle>
          <DialogDescription>{created ? t("createdDescription") : t("description")}</DialogDescription>
        </DialogHeader>
        {created ? (
          <>
            <WebhookSecretOnce secret={created.secret} url={created.url} />
            <DialogFooter>
              <Button type="button" onClick={onClose}>
                {created.secret === null ? tCommon("close") : t("done")}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <div className="grid gap-4">
            <FormError>{error ? formText(error) : null}</FormError>
            <div className="grid gap-2">
              <Label htmlFor="rotation-overlap">{t("overlap")}</Label>
              <NativeSelect
                id="rotation-overlap"
                value={overlapMinutes}
                onChange={(event) => setOverlapMinutes(Number(event.target.value))}
              >
                {rotationOverlapMinutes.map((minutes) => (
                  <option key={minutes} value={minutes}>
                    {minutes < 60 ? t("minutes", { count: minutes }) : t("hours", { count: minutes / 60 })}
                  </option>
                ))}
              </NativeSelect>
              <p className="text-sm text-muted-foreground">{t("overlapHelp")}</p>
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" disabled={isPending} onClick={onClose}>
                {tCommon("cancel")}
              </Button>
              <Button type="button" disabled={isPending} onClick={rotate}>
                {isPending ? <Spinner /> : null}
                {t("confirm")}
              </Button>
            </DialogFooter>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function DeactivateWebhookDialog({ webhook, isOpen, onClose }: DialogProps & { isOpen: boolean }) {
  const t = useTranslations("webhooks.actions.deactivate");
  const { formText } = useActionErrorText("webhooks");

  return (
    <ConfirmActionButton
      open={isOpen}
      onOpenChange={(open) => !open && onClose()}
      title={t("title")}
      description={t("description", { url: webhook.url })}
      descriptionClassName="break-all"
      confirmLabel={t("confirm")}
      variant="destructive"
      hasSpinner={false}
      action={() => deactivateWebhookAction({ webhookId: webhook.upstreamId })}
      successMessage={t("done")}
      errorText={formText}
    />
  );
}
