import { Loader2Icon } from "lucide-react";
import { useTranslations } from "next-intl";

import { cn } from "@/lib/utils";

type SpinnerProps = {
  className?: string;
  /** Announced to screen readers; defaults to "Loading…". */
  label?: string;
};

export function Spinner({ className, label }: SpinnerProps) {
  const t = useTranslations("common");
  return (
    <span role="status" data-slot="spinner" className="inline-flex items-center">
      <Loader2Icon className={cn("size-4 animate-spin", className)} aria-hidden="true" />
      <span className="sr-only">{label ?? t("loading")}</span>
    </span>
  );
}
