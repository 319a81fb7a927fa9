import "server-only";
import type { TExportList } from "@/lib/exports/define";
import type { TOverviewSource } from "@/lib/overview/sources";
import type { TReconcilePass } from "@/lib/reconcile/pass";
import type { TSearchKindEntry } from "@/lib/search/define";
import { cardPaymentExport, cardPaymentOverview, cardPaymentPass, cardPaymentSearch } from "./kinds/card-payment";
import { paymentLinkExport, paymentLinkOverview, paymentLinkPass, paymentLinkSearch } from "./kinds/payment-link";
import { pixChargeExport, pixChargeOverview, pixChargePass, pixChargeSearch } from "./kinds/pix-charge";
import { pixRefundExport, pixRefundOverview, pixRefundPass } from "./kinds/pix-refund";
import { savedCardSearch } from "./kinds/saved-card";
import { webhookDeliveryExport } from "./kinds/webhook-delivery";
import { resourceDescriptors, type TResourceDescriptor, type TResourceKey } from "./registry";

// The server half of each resource's registry entry (./registry.ts); registry.test.ts checks each has its parts.

type TResourceServerParts = {
  export?: TExportList;
  search?: TSearchKindEntry;
  reconcile?: TReconcilePass;
  // Its figures on the overview, live and rolled up per closed day.
  overview?: readonly TOverviewSource[];
};

export type TResourceEntry = TResourceServerParts & { descriptor: TResourceDescriptor };

const serverParts: Record<TResourceKey, TResourceServerParts> = {
  pixCharge: {
    export: pixChargeExport,
    search: pixChargeSearch,
    reconcile: pixChargePass,
    overview: pixChargeOverview,
  },
  pixRefund: { export: pixRefundExport, reconcile: pixRefundPass, overview: pixRefundOverview },
  paymentLink: {
    export: paymentLinkExport,
    search: paymentLinkSearch,
    reconcile: paymentLinkPass,
    overview: paymentLinkOverview,
  },
  cardPayment: {
    export: cardPaymentExport,
    search: cardPaymentSearch,
    reconcile: cardPaymentPass,
    overview: cardPaymentOverview,
  },
  savedCard: { search: savedCardSearch },
  posSale: {},
  webhookDelivery: { export: webhookDeliveryExport },
};

export const resourceRegistry: readonly TResourceEntry[] = resourceDescriptors.map((descriptor) => ({
  descriptor,
  ...serverParts[descriptor.key],
}));
