"use client";

import { TriangleAlertIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect } from "react";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

// Inside the dashboard layout, so the sidebar keeps working and the person can go elsewhere.
export default function DashboardError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  const t = useTranslations();

  useEffect(() => {
    // The server already logged the details; the browser console helps when reporting it.
    console.error(error);
  }, [error]);

  return (
    <div role="alert">
      <EmptyState
        icon={TriangleAlertIcon}
        title={t("errors.genericTitle")}
        description={
          <>
            {t("errors.genericDescription")}
            {error.digest ? (
              <span className="mt-2 block font-mono text-xs">{t("errors.reference", { digest: error.digest })}</span>
            ) : null}
          </>
        }
        action={<Button onClick={() => retry()}>{t("common.retry")}</Button>}
      />
    </div>
  );
}
