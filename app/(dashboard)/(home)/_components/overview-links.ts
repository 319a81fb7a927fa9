import type { TPeriod } from "@/lib/list/period";
import { pixRefundStatusCodes } from "@/lib/pix/types";

import { serializePaymentLinkSearchParams } from "../../links/(list)/search-params";
import { serializeCardPaymentSearchParams } from "../../payments/(list)/search-params";
import { serializePixChargeSearchParams } from "../../pix/(list)/search-params";
import { serializePixRefundSearchParams } from "../../refunds/search-params";

// Each figure opens the list filtered to exactly the rows it counts (docs/overview.md).
export function overviewHrefs({ from, to }: TPeriod) {
  const period = { from, to };
  const refunds = (statusCode: number) => serializePixRefundSearchParams("/refunds", { ...period, statusCode });
  return {
    pixReceived: serializePixChargeSearchParams("/pix", { ...period, date: "paid" }),
    pixPending: serializePixChargeSearchParams("/pix", { ...period, status: "ACTIVE" }),
    refundsReturned: refunds(pixRefundStatusCodes.RETURNED),
    refundsCreated: refunds(pixRefundStatusCodes.CREATED),
    refundsProcessing: refunds(pixRefundStatusCodes.PROCESSING),
    cardApproved: serializeCardPaymentSearchParams("/payments", { ...period, status: "approved" }),
    cardCancelled: serializeCardPaymentSearchParams("/payments", { ...period, status: "cancelled" }),
    linksCreated: serializePaymentLinkSearchParams("/links", period),
    linksPaid: serializePaymentLinkSearchParams("/links", { ...period, status: "PAGO" }),
    linksOpen: serializePaymentLinkSearchParams("/links", { ...period, status: "ATIVO" }),
  };
}

export type TOverviewHrefs = ReturnType<typeof overviewHrefs>;
