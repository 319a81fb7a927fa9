"use client";

import { useTranslations } from "next-intl";

import { RefreshFromGatewayButton } from "@/components/data-table/refresh-from-gateway-button";
import type { TActionError } from "@/lib/actions/define-action";
import type { TPeriod } from "@/lib/list/period";

import { refreshCardPaymentsPageAction } from "../(list)/actions";

/** Pulls the period's payments from the gateway's list (newest first) into the mirror, with progress. */
export function CardPaymentsRefreshButton({ period }: { period: TPeriod }) {
  const t = useTranslations();
  const errorText = (error: TActionError) => {
    const key = Object.values(error.fieldErrors ?? {})
      .map((field) => `cardPayments.errors.${field}`)
      .find((candidate) => t.has(candidate));
    return key ? t(key) : t(`errors.codes.${error.code}`);
  };
  return (
    <RefreshFromGatewayButton
      period={period}
      refreshPage={refreshCardPaymentsPageAction}
      errorText={errorText}
      labels={{
        button: t("cardPayments.list.refresh.button"),
        starting: t("cardPayments.list.refresh.starting"),
        progress: (page, totalPages) => t("cardPayments.list.refresh.progress", { page, totalPages }),
        done: (count) => t("cardPayments.list.refresh.done", { count }),
      }}
    />
  );
}
