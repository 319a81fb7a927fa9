import type { ReactNode } from "react";

// Markup shared by the page's client islands. No imports beyond React: the islands stay small (no
// class merging, icon or UI library in the browser); class names of the app's buttons and inputs come
// from the server as `TPayStyles`.

/** Class names of the app's components, computed on the server (components/ui) and handed to the islands. */
export type TPayStyles = { input: string; button: string; outlineButton: string };

export function PaySpinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
    />
  );
}

/** Error for the whole form, announced when it appears (the look of components/ui/field's FormError). */
export function PayFormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <div
      role="alert"
      data-slot="form-error"
      className="rounded-md border border-destructive/30 bg-danger-soft px-3 py-2 text-sm text-destructive"
    >
      {children}
    </div>
  );
}

export const payLabelClassName = "flex items-center gap-2 text-sm leading-none font-medium select-none";
