"use client";

import { TriangleAlertIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type ReactNode, useTransition } from "react";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Spinner } from "@/components/ui/spinner";

type DataTableErrorProps = {
  /** Refetch (TanStack Query's `refetch`); without it the route is refreshed from the server. */
  onRetry?: () => unknown;
  /** A specific, safe message (an AppError's), shown under the generic title. */
  description?: ReactNode;
};

export function DataTableError({ onRetry, description }: DataTableErrorProps) {
  const t = useTranslations("common");
  const router = useRouter();
  const [isRetrying, startTransition] = useTransition();

  return (
    <div role="alert">
      <EmptyState
        icon={TriangleAlertIcon}
        title={t("table.errorTitle")}
        description={description ?? t("table.errorDescription")}
        action={
          <Button
            variant="outline"
            disabled={isRetrying}
            onClick={() =>
              startTransition(async () => {
                if (onRetry) await onRetry();
                else router.refresh();
              })
            }
          >
            {isRetrying ? <Spinner /> : null}
            {t("retry")}
          </Button>
        }
      />
    </div>
  );
}
