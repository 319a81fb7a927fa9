import {
  CircleDotIcon,
  ClipboardCheckIcon,
  ContactIcon,
  CreditCardIcon,
  HouseIcon,
  KeyRoundIcon,
  LinkIcon,
  type LucideIcon,
  QrCodeIcon,
  ScrollTextIcon,
  SettingsIcon,
  StoreIcon,
  TimerIcon,
  Undo2Icon,
  UsersIcon,
  WebhookIcon,
} from "lucide-react";

import {
  resourceDescriptors,
  type TNavSectionKey,
  type TResourceDescriptor,
  type TResourceKey,
} from "@/lib/resources/registry";

type TNavItem = { key: string; href: `/${string}`; icon: LucideIcon };
export type TNavSection = { key: TNavSectionKey; isAdminOnly: boolean; items: TNavItem[] };

type TPlacedNavItem = TNavItem & { position: number };

// The pages that are not a resource's list; each resource's item comes from the registry (lib/resources/registry.ts),
// placed among these by its `position`.
const pageItems: Record<TNavSectionKey, TPlacedNavItem[]> = {
  payments: [
    { key: "home", href: "/", icon: HouseIcon, position: 0 },
    { key: "approvals", href: "/approvals", icon: ClipboardCheckIcon, position: 30 },
    { key: "customers", href: "/customers", icon: ContactIcon, position: 60 },
  ],
  integrations: [],
  admin: [
    { key: "users", href: "/users", icon: UsersIcon, position: 30 },
    { key: "webhooks", href: "/webhooks", icon: WebhookIcon, position: 40 },
    { key: "jobs", href: "/jobs", icon: TimerIcon, position: 50 },
    { key: "audit", href: "/audit", icon: ScrollTextIcon, position: 60 },
    { key: "settings", href: "/settings", icon: SettingsIcon, position: 70 },
  ],
};

// Here, not in the registry: the registry is also read by the worker and the CLI, where React components cannot load.
const resourceIcons: Record<TResourceKey, LucideIcon> = {
  pixCharge: QrCodeIcon,
  pixRefund: Undo2Icon,
  paymentLink: LinkIcon,
  cardPayment: CreditCardIcon,
  savedCard: KeyRoundIcon,
  posSale: StoreIcon,
  webhookDelivery: WebhookIcon,
};

function resourceItemsOf(descriptors: readonly TResourceDescriptor[], section: TNavSectionKey): TPlacedNavItem[] {
  return descriptors.flatMap(({ key, nav }) =>
    nav.section === section ? [{ ...nav, icon: resourceIcons[key as TResourceKey] ?? CircleDotIcon }] : [],
  );
}

// Staff follow deliveries; registering and rotating webhooks is an admin task.
const sectionOrder: { key: TNavSectionKey; isAdminOnly: boolean }[] = [
  { key: "payments", isAdminOnly: false },
  { key: "integrations", isAdminOnly: false },
  { key: "admin", isAdminOnly: true },
];

export function buildNavSections(descriptors: readonly TResourceDescriptor[]): TNavSection[] {
  return sectionOrder.map(({ key, isAdminOnly }) => ({
    key,
    isAdminOnly,
    items: [...pageItems[key], ...resourceItemsOf(descriptors, key)]
      .sort((a, b) => a.position - b.position)
      .map(({ key: itemKey, href, icon }) => ({ key: itemKey, href, icon })),
  }));
}

// Hiding the admin section is only cosmetic: each admin page and action checks the role itself.
export const navSections: TNavSection[] = buildNavSections(resourceDescriptors);

/** True when `pathname` is the item's page or one below it (`/pix/abc` belongs to `/pix`). */
export function isNavItemActive(href: string, pathname: string): boolean {
  // Home is current on "/" only, not on every page below it.
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** The one item to mark current: the most specific link that contains `pathname`. */
export function findActiveNavHref(pathname: string): string | undefined {
  return navSections
    .flatMap((section) => section.items.map((item) => item.href))
    .filter((href) => isNavItemActive(href, pathname))
    .sort((a, b) => b.length - a.length)[0];
}
