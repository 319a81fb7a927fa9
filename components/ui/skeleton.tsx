import type { ComponentProps } from "react";

import { cn } from "@/lib/utils";

/** A grey placeholder block; hidden from assistive tech (announce loading with a Spinner or `aria-busy`). */
export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn("animate-pulse rounded-md bg-muted", className)}
      {...props}
    />
  );
}
