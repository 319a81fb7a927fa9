"use client";

import { Slot } from "radix-ui";
import { type ComponentProps, type ReactElement, type ReactNode, useId } from "react";

import { cn } from "@/lib/utils";

import { Label } from "./label";

type FieldControlProps = {
  id: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  "aria-required"?: boolean;
};

type FieldProps = {
  label: ReactNode;
  /** The control: one element that accepts `id`, `aria-invalid` and `aria-describedby` (Input, Textarea, Checkbox, MoneyInput). */
  children: ReactElement;
  description?: ReactNode;
  /** Message shown under the control; when set the control is marked invalid and described by it. */
  error?: string | string[] | null;
  /** Id of the control; generated when omitted. */
  id?: string;
  required?: boolean;
  className?: string;
};

/**
 * A labelled form control with optional help text and error message. The label points at the
 * control, and the control is `aria-invalid` and `aria-describedby` its help and error text,
 * so screen readers announce all three together.
 */
export function Field({ label, children, description, error, id, required, className }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const message = Array.isArray(error) ? error.join(" ") : error;
  const isInvalid = Boolean(message);
  const describedBy = [description ? descriptionId : null, isInvalid ? errorId : null].filter(Boolean).join(" ");
  const controlProps: FieldControlProps = {
    id: controlId,
    "aria-invalid": isInvalid || undefined,
    "aria-describedby": describedBy || undefined,
    "aria-required": required || undefined,
  };

  return (
    <div data-slot="field" className={cn("grid content-start gap-2", className)}>
      <Label htmlFor={controlId}>
        {label}
        {required ? (
          <span aria-hidden="true" className="text-destructive">
            *
          </span>
        ) : null}
      </Label>
      <Slot.Root {...controlProps}>{children}</Slot.Root>
      {description ? <FieldDescription id={descriptionId}>{description}</FieldDescription> : null}
      {isInvalid ? <FieldError id={errorId}>{message}</FieldError> : null}
    </div>
  );
}

function FieldDescription({ className, ...props }: ComponentProps<"p">) {
  return <p data-slot="field-description" className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

export function FieldError({ className, ...props }: ComponentProps<"p">) {
  return <p data-slot="field-error" className={cn("text-sm font-medium text-destructive", className)} {...props} />;
}

/** Error for the whole form (not tied to one field), announced when it appears. */
export function FormError({ className, children, ...props }: ComponentProps<"div">) {
  if (!children) return null;
  return (
    <div
      role="alert"
      data-slot="form-error"
      className={cn(
        "rounded-md border border-destructive/30 bg-danger-soft px-3 py-2 text-sm text-destructive",
        className,
      )}
      {...props}
    >
      {children}
    </div>
  );
}
