import {
  ClipboardCheckIcon,
  ContactIcon,
  HouseIcon,
  type LucideIcon,
  ScrollTextIcon,
  SettingsIcon,
  TimerIcon,
  UsersIcon,
  WebhookIcon,
} from "lucide-react";

import {
  navItemsOf,
  resourceDescriptors,
  type TNavSectionKey,
  type TResourceDescriptor,
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
    items: [...pageItems[key], ...navItemsOf(descriptors, key)]
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
