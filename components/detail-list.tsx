import type { ComponentProps, ReactNode } from "react";

import { cn } from "@/lib/utils";

/** The label/value list of a detail page (a charge, a payment link); lay it out with `className`. */
export function DetailList({ className, ...props }: ComponentProps<"dl">) {
  return <dl className={cn("grid gap-3 text-sm", className)} {...props} />;
}

/** One label/value pair of a `DetailList`. */
export function DetailItem({ label, children, className }: { label: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div className={cn("min-w-0", className)}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-medium">{children}</dd>
    </div>
  );
}
