import type { ReactNode } from "react";

import { Badge, type TBadgeTone } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

export type TStatusTone = Exclude<TBadgeTone, "outline">;

const dotClassByTone: Record<TStatusTone, string> = {
  neutral: "bg-muted-foreground",
  success: "bg-success",
  warning: "bg-warning",
  danger: "bg-destructive",
  info: "bg-info",
};

type StatusBadgeProps<TStatus extends string> = {
  status: TStatus;
  /** Each feature maps its spec statuses to a tone, e.g. `{ CONCLUIDA: "success", ATIVA: "info" }`. */
  toneByStatus: Partial<Record<TStatus, TStatusTone>>;
  /** The translated status name; the colour only repeats it, never replaces it. */
  children: ReactNode;
  className?: string;
};

/** A status shown as text with a coloured dot; unknown statuses fall back to neutral. */
export function StatusBadge<TStatus extends string>({
  status,
  toneByStatus,
  children,
  className,
}: StatusBadgeProps<TStatus>) {
  const tone = toneByStatus[status] ?? "neutral";
  return (
    <Badge tone={tone} data-status={status} className={className}>
      <span aria-hidden="true" className={cn("size-1.5 rounded-full", dotClassByTone[tone])} />
      {children}
    </Badge>
  );
}
