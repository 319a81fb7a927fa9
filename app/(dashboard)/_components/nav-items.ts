import {
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

type TNavKey =
  | "home"
  | "pix"
  | "refunds"
  | "approvals"
  | "links"
  | "payments"
  | "customers"
  | "cards"
  | "webhooks"
  | "webhookDeliveries"
  | "pos"
  | "users"
  | "jobs"
  | "audit"
  | "settings";

type TNavItem = { key: TNavKey; href: `/${string}`; icon: LucideIcon };
export type TNavSection = { key: "payments" | "integrations" | "admin"; isAdminOnly: boolean; items: TNavItem[] };

// Hiding the admin section is only cosmetic: each admin page and action checks the role itself.
export const navSections: TNavSection[] = [
  {
    key: "payments",
    isAdminOnly: false,
    items: [
      { key: "home", href: "/", icon: HouseIcon },
      { key: "pix", href: "/pix", icon: QrCodeIcon },
      { key: "refunds", href: "/refunds", icon: Undo2Icon },
      { key: "approvals", href: "/approvals", icon: ClipboardCheckIcon },
      { key: "links", href: "/links", icon: LinkIcon },
      { key: "payments", href: "/payments", icon: CreditCardIcon },
      { key: "customers", href: "/customers", icon: ContactIcon },
    ],
  },
  {
    key: "integrations",
    isAdminOnly: false,
    // Staff follow deliveries; registering and rotating webhooks is an admin task.
    items: [{ key: "webhookDeliveries", href: "/webhooks/deliveries", icon: WebhookIcon }],
  },
  {
    key: "admin",
    isAdminOnly: true,
    items: [
      { key: "cards", href: "/cards", icon: KeyRoundIcon },
      { key: "pos", href: "/pos", icon: StoreIcon },
      { key: "users", href: "/users", icon: UsersIcon },
      { key: "webhooks", href: "/webhooks", icon: WebhookIcon },
      { key: "jobs", href: "/jobs", icon: TimerIcon },
      { key: "audit", href: "/audit", icon: ScrollTextIcon },
      { key: "settings", href: "/settings", icon: SettingsIcon },
    ],
  },
];

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
