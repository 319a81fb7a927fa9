import type { FormEventHandler, ReactNode } from "react";

import { cn } from "@/lib/utils";

type FilterFormProps = {
  id?: string;
  /** The list's own path: the form submits to it. */
  action: string;
  /** Accessible name of the form. */
  label: string;
  /** The columns at larger widths (`lg:grid-cols-…`). */
  className?: string;
  /** With JavaScript: writes the filters to the URL without a full reload (useFilterForm). */
  onSubmit?: FormEventHandler<HTMLFormElement>;
  isPending?: boolean;
  children: ReactNode;
};

/**
 * A list's filter form. A plain GET form: the filters live in the URL, so a filtered view can be
 * reloaded and shared.
 */
export function FilterForm({ id, action, label, className, onSubmit, isPending, children }: FilterFormProps) {
  return (
    <form
      id={id}
      method="get"
      action={action}
      aria-label={label}
      aria-busy={isPending || undefined}
      onSubmit={onSubmit}
      className={cn("grid gap-4 rounded-lg border p-4 sm:grid-cols-2", className)}
    >
      {children}
    </form>
  );
}
