// Pure, for client components: what each resource is called and where it shows; server parts in ./server-registry.ts.
import type { TPermission } from "@/lib/auth/permissions";
import type { PosMatchStatus, WebhookDeliveryOutcome } from "@/lib/generated/prisma/enums";
import type { TPixChargeStatus, TPixRefundStatusCode } from "@/lib/pix/types";

export type TNavSectionKey = "payments" | "integrations" | "admin";

type TResourceNav = {
  key: string;
  href: `/${string}`;
  section: TNavSectionKey;
  position: number;
};

type TResourceStatusTone = "neutral" | "success" | "warning" | "danger" | "info";

// A row's status as components/resource-status-badge.tsx shows it: named by `<messages>.<status>` (spaces as `_`),
// coloured by its tone; a status the catalogs lack is shown as the gateway sent it, in `unknownTone` (or neutral).
export type TResourceBadge = {
  messages: string;
  tones: Record<string, TResourceStatusTone>;
  unknownTone?: TResourceStatusTone;
};

// Which parts an entry must have (registry.test.ts): only `payment`, money the gateway lists, is reconciled.
type TResourceSort = "payment" | "vaulted" | "terminal" | "received";

export type TResourceDescriptor = {
  key: string;
  sort: TResourceSort;
  labelKey: `nav.${string}`;
  // Who sees it: in the nav, the search palette, the export route and the live stream alike.
  permission: TPermission;
  nav: TResourceNav;
  badge: TResourceBadge;
  // The live-update kind (lib/events/change.ts) published when its row changes.
  change?: string;
  exportKind?: string;
  searchKind?: string;
  // Found through another resource's search entry instead of its own (a refund through its charge).
  searchedThrough?: string;
  isReconciled?: true;
  // Each row has a page at `${nav.href}/${id}`, where a healed item on the reconciliation panel links.
  hasDetailPage?: true;
};

export function defineResources<const T extends readonly TResourceDescriptor[]>(descriptors: T): T {
  return descriptors;
}

// Order is the palette's, the exports' and the reconciler's: a charge is healed before its refunds.
export const resourceDescriptors = defineResources([
  {
    key: "pixCharge",
    sort: "payment",
    labelKey: "nav.pix",
    permission: "payments.view",
    nav: { key: "pix", href: "/pix", section: "payments", position: 10 },
    badge: {
      messages: "pix.status",
      tones: {
        CREATED: "neutral",
        ACTIVE: "info",
        PAID: "success",
        "PARTIALLY REFUNDED": "warning",
        REFUNDED: "neutral",
        EXPIRED: "neutral",
        Cancelada: "danger",
      } satisfies Record<TPixChargeStatus, TResourceStatusTone>,
    },
    change: "pix_charge",
    exportKind: "pixCharges",
    searchKind: "pixCharges",
    isReconciled: true,
    hasDetailPage: true,
  },
  {
    key: "pixRefund",
    sort: "payment",
    labelKey: "nav.refunds",
    permission: "payments.view",
    nav: { key: "refunds", href: "/refunds", section: "payments", position: 20 },
    // Spec 3.5 codes: 1 CREATED, 2 PROCESSING, 3 RETURNED, 4 NOT FINISHED, 99 ERROR.
    badge: {
      messages: "refunds.status",
      tones: { 1: "neutral", 2: "info", 3: "success", 4: "danger", 99: "danger" } satisfies Record<
        TPixRefundStatusCode,
        TResourceStatusTone
      >,
    },
    change: "pix_refund",
    exportKind: "refunds",
    searchedThrough: "pixCharge",
    isReconciled: true,
  },
  {
    key: "paymentLink",
    sort: "payment",
    labelKey: "nav.links",
    permission: "payments.view",
    nav: { key: "links", href: "/links", section: "payments", position: 40 },
    // Spec 3.3 codes: 1 CREATED, 2 EXPIRED, 3 PAID, 4 CANCELLED.
    badge: { messages: "links.status", tones: { 1: "info", 2: "neutral", 3: "success", 4: "danger" } },
    change: "payment_link",
    exportKind: "links",
    searchKind: "paymentLinks",
    isReconciled: true,
    hasDetailPage: true,
  },
  {
    key: "cardPayment",
    sort: "payment",
    labelKey: "nav.payments",
    permission: "payments.view",
    nav: { key: "payments", href: "/payments", section: "payments", position: 50 },
    // By status kind (lib/card-payments/views.ts): approval needs more than the status code.
    badge: {
      messages: "cardPayments.statusKind",
      tones: { approved: "success", cancelled: "neutral", refused: "danger" },
      unknownTone: "warning",
    },
    change: "card_payment",
    exportKind: "cardPayments",
    searchKind: "cardPayments",
    isReconciled: true,
    hasDetailPage: true,
  },
  {
    key: "savedCard",
    sort: "vaulted",
    labelKey: "nav.cards",
    permission: "savedCards.manage",
    nav: { key: "cards", href: "/cards", section: "admin", position: 10 },
    badge: { messages: "cards.status", tones: { ATV: "success", INA: "neutral" } },
    change: "card_token",
    searchKind: "savedCards",
  },
  {
    key: "posSale",
    sort: "terminal",
    labelKey: "nav.pos",
    permission: "pos.manage",
    nav: { key: "pos", href: "/pos", section: "admin", position: 20 },
    change: "pos_sale",
    // Whether the gateway confirms the sale the terminal reported.
    badge: {
      messages: "pos.sales.match",
      tones: {
        PENDING: "neutral",
        MATCHED: "success",
        MISSING_AT_GATEWAY: "danger",
        AMOUNT_MISMATCH: "warning",
      } satisfies Record<PosMatchStatus, TResourceStatusTone>,
    },
  },
  {
    key: "webhookDelivery",
    sort: "received",
    labelKey: "nav.webhookDeliveries",
    permission: "webhooks.view",
    nav: {
      key: "webhookDeliveries",
      href: "/webhooks/deliveries",
      section: "integrations",
      position: 10,
    },
    badge: {
      messages: "webhooks.outcomes",
      tones: {
        PENDING: "info",
        APPLIED: "success",
        DUPLICATE: "neutral",
        IGNORED: "neutral",
        REJECTED_SIGNATURE: "danger",
        STALE: "warning",
        FAILED: "danger",
      } satisfies Record<WebhookDeliveryOutcome, TResourceStatusTone>,
    },
    hasDetailPage: true,
    change: "webhook_delivery",
    exportKind: "webhookDeliveries",
  },
]);

type TDescriptor = (typeof resourceDescriptors)[number];
export type TResourceKey = TDescriptor["key"];
export type TResourceExportKind = Extract<TDescriptor, { exportKind: string }>["exportKind"];
export type TReconciledChangeKind = Extract<TDescriptor, { isReconciled: true }>["change"];

export const resourceChangeKinds = resourceDescriptors.flatMap((descriptor) =>
  "change" in descriptor ? [descriptor.change] : [],
);

export const resourceSearchKinds = resourceDescriptors.flatMap((descriptor) =>
  "searchKind" in descriptor ? [descriptor.searchKind] : [],
);

export const reconciledChangeKinds = resourceDescriptors.flatMap((descriptor) =>
  "isReconciled" in descriptor && "change" in descriptor ? [descriptor.change] : [],
);

// Where the reconciliation panel links a healed item, by its change kind.
export const detailHrefByChangeKind: Record<string, string> = Object.fromEntries(
  resourceDescriptors.flatMap((descriptor) =>
    "hasDetailPage" in descriptor && "change" in descriptor ? [[descriptor.change, descriptor.nav.href]] : [],
  ),
);

// Who hears of a change on the live stream (app/api/events): a resource's ids reach those who may see it.
export const changeKindPermissions: Readonly<Record<string, TPermission>> = Object.fromEntries(
  resourceDescriptors.flatMap((descriptor) =>
    "change" in descriptor ? [[descriptor.change, descriptor.permission]] : [],
  ),
);
