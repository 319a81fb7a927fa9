import "server-only";
import type { TExportList } from "@/lib/exports/define";
import type { TReconcilePass } from "@/lib/reconcile/pass";
import type { TSearchKindEntry } from "@/lib/search/define";
import { cardPaymentExport, cardPaymentPass, cardPaymentSearch } from "./kinds/card-payment";
import { paymentLinkExport, paymentLinkPass, paymentLinkSearch } from "./kinds/payment-link";
import { pixChargeExport, pixChargePass, pixChargeSearch } from "./kinds/pix-charge";
import { pixRefundExport, pixRefundPass } from "./kinds/pix-refund";
import { savedCardSearch } from "./kinds/saved-card";
import { webhookDeliveryExport } from "./kinds/webhook-delivery";
import { resourceDescriptors, type TResourceDescriptor, type TResourceKey } from "./registry";

// The server half of each resource's registry entry (./registry.ts); registry.test.ts checks each has its parts.

type TResourceServerParts = {
  export?: TExportList;
  search?: TSearchKindEntry;
  reconcile?: TReconcilePass;
};

export type TResourceEntry = TResourceServerParts & { descriptor: TResourceDescriptor };

const serverParts: Record<TResourceKey, TResourceServerParts> = {
  pixCharge: { export: pixChargeExport, search: pixChargeSearch, reconcile: pixChargePass },
  pixRefund: { export: pixRefundExport, reconcile: pixRefundPass },
  paymentLink: { export: paymentLinkExport, search: paymentLinkSearch, reconcile: paymentLinkPass },
  cardPayment: { export: cardPaymentExport, search: cardPaymentSearch, reconcile: cardPaymentPass },
  savedCard: { search: savedCardSearch },
  posSale: {},
  webhookDelivery: { export: webhookDeliveryExport },
};

export const resourceRegistry: readonly TResourceEntry[] = resourceDescriptors.map((descriptor) => ({
  descriptor,
  ...serverParts[descriptor.key],
}));
