"use client";

import { useTranslations } from "next-intl";

import { RefreshFromGatewayButton as GatewayRefreshButton } from "@/components/data-table/refresh-from-gateway-button";
import type { TPeriod } from "@/lib/list/period";

import { refreshPixChargesPageAction } from "../actions";
import { usePixErrorText } from "./use-pix-error-text";

/** Pulls the period's charges from the gateway's list into the mirror, page by page with progress. */
export function RefreshFromGatewayButton({ period }: { period: TPeriod }) {
  const t = useTranslations("pix.list.refresh");
  const { formText } = usePixErrorText();
  return (
    <GatewayRefreshButton
      period={period}
      refreshPage={refreshPixChargesPageAction}
      errorText={(error) => formText(error)}
      labels={{
        button: t("button"),
        starting: t("starting"),
        progress: (page, totalPages) => t("progress", { page, totalPages }),
        done: (count) => t("done", { count }),
      }}
    />
  );
}
