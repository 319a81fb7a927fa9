"use client";

import { useTranslations } from "next-intl";

import { RefreshFromGatewayButton } from "@/components/data-table/refresh-from-gateway-button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { refreshCardTokensPageAction } from "../actions";

// The card list has no period (upstream lists every token): the shared button's period is left empty and unused.
const noPeriod = { from: "", to: "" };

/** Pulls every token of the gateway's list into the mirror (tokens saved elsewhere included). */
export function RefreshCardTokensButton() {
  const t = useTranslations("cards.refresh");
  const { formText } = useActionErrorText("cards");
  return (
    <RefreshFromGatewayButton
      period={noPeriod}
      refreshPage={({ page }) => refreshCardTokensPageAction({ page })}
      labels={{
        button: t("button"),
        starting: t("starting"),
        progress: (page, totalPages) => t("progress", { page, totalPages }),
        done: (count) => t("done", { count }),
      }}
      errorText={formText}
    />
  );
}
