import {
  ActivityIcon,
  BellIcon,
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

import type { TPermission } from "@/lib/auth/permissions";
import {
  resourceDescriptors,
  type TNavSectionKey,
  type TResourceDescriptor,
  type TResourceKey,
} from "@/lib/resources/registry";

type TNavItem = { key: string; href: `/${string}`; icon: LucideIcon; permission: TPermission };
export type TNavSection = { key: TNavSectionKey; items: TNavItem[] };

type TPlacedNavItem = TNavItem & { position: number };

// The pages that are not a resource's list; each resource's item comes from the registry (lib/resources/registry.ts),
// placed among these by its `position`.
const pageItems: Record<TNavSectionKey, TPlacedNavItem[]> = {
  payments: [
    { key: "home", href: "/", icon: HouseIcon, position: 0, permission: "payments.view" },
    { key: "approvals", href: "/approvals", icon: ClipboardCheckIcon, position: 30, permission: "payments.view" },
    { key: "customers", href: "/customers", icon: ContactIcon, position: 60, permission: "payments.view" },
  ],
  integrations: [],
  admin: [
    { key: "users", href: "/users", icon: UsersIcon, position: 30, permission: "users.manage" },
    { key: "webhooks", href: "/webhooks", icon: WebhookIcon, position: 40, permission: "webhooks.manage" },
    { key: "jobs", href: "/jobs", icon: TimerIcon, position: 50, permission: "jobs.run" },
    { key: "alerts", href: "/alerts", icon: BellIcon, position: 55, permission: "health.view" },
    { key: "health", href: "/health", icon: ActivityIcon, position: 54, permission: "health.view" },
    { key: "audit", href: "/audit", icon: ScrollTextIcon, position: 60, permission: "audit.view" },
    { key: "settings", href: "/settings", icon: SettingsIcon, position: 70, permission: "settings.manage" },
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
  return descriptors.flatMap(({ key, nav, permission }) =>
    nav.section === section ? [{ ...nav, permission, icon: resourceIcons[key as TResourceKey] ?? CircleDotIcon }] : [],
  );
}

const sectionOrder: TNavSectionKey[] = ["payments", "integrations", "admin"];

export function buildNavSections(descriptors: readonly TResourceDescriptor[]): TNavSection[] {
  return sectionOrder.map((key) => ({
    key,
    items: [...pageItems[key], ...resourceItemsOf(descriptors, key)]
      .sort((a, b) => a.position - b.position)
      .map(({ key: itemKey, href, icon, permission }) => ({ key: itemKey, href, icon, permission })),
  }));
}

export const navSections: TNavSection[] = buildNavSections(resourceDescriptors);

// Hiding an item is only cosmetic: each page and action checks its permission itself.
export function navSectionsFor(held: readonly TPermission[]): TNavSection[] {
  return navSections
    .map((section) => ({ ...section, items: section.items.filter((item) => held.includes(item.permission)) }))
    .filter((section) => section.items.length > 0);
}

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
