"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";

import { Checkbox } from "@/components/ui/checkbox";
import { FieldError } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { type TWebhookEvent, webhookEvents } from "@/lib/webhooks/event-names";
import { webhookEventKey } from "@/lib/webhooks/schemas";

type EventCheckboxesProps = {
  value: TWebhookEvent[];
  onChange: (events: TWebhookEvent[]) => void;
  error?: string;
};

/** The spec's events (6.1) as a group of checkboxes; the group carries the label and the error. */
export function EventCheckboxes({ value, onChange, error }: EventCheckboxesProps) {
  const t = useTranslations("webhooks");
  const id = useId();

  function toggle(event: TWebhookEvent, isChecked: boolean) {
    onChange(
      isChecked
        ? webhookEvents.filter((item) => item === event || value.includes(item))
        : value.filter((item) => item !== event),
    );
  }

  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={error ? `${id}-error` : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="mb-2 text-sm font-medium">{t("form.events")}</legend>
      {webhookEvents.map((event) => (
        <div key={event} className="flex items-start gap-2">
          <Checkbox
            id={`${id}-${event}`}
            checked={value.includes(event)}
            onCheckedChange={(checked) => toggle(event, checked === true)}
          />
          <Label htmlFor={`${id}-${event}`} className="grid gap-0.5 font-normal">
            <span>{t(`events.${webhookEventKey(event)}`)}</span>
            <span className="font-mono text-xs text-muted-foreground">{event}</span>
          </Label>
        </div>
      ))}
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </fieldset>
  );
}
