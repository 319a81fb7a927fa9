import { z } from "zod";

// Pure, for client components too: what a person may do. Every page, action and route handler asks for one of these
// (lib/auth/session.ts); roles (./roles.ts) are only named sets of them. docs/roles.md says what each one opens.

export const permissionGroups = {
  payments: ["payments.view", "customers.viewDocuments", "exports.download"],
  money: ["pix.charge", "links.manage", "cards.charge", "refunds.request", "cards.cancel", "refunds.approve"],
  vault: ["savedCards.manage"],
  developers: ["webhooks.view", "webhooks.manage", "pos.manage", "jobs.run"],
  operations: ["health.view", "alerts.manage", "alerts.receive"],
  administration: ["users.manage", "audit.view", "settings.manage"],
} as const;

type TPermissionGroup = keyof typeof permissionGroups;
export type TPermission = (typeof permissionGroups)[TPermissionGroup][number];

export const permissions: readonly TPermission[] = Object.values(permissionGroups).flat();

export const ZPermission = z.enum(permissions as [TPermission, ...TPermission[]], { error: "invalidPermission" });

export function isPermission(value: string): value is TPermission {
  return (permissions as readonly string[]).includes(value);
}

// A stored list may hold a permission a later release renamed or removed: it grants nothing.
export function knownPermissions(values: readonly string[]): TPermission[] {
  return permissions.filter((permission) => values.includes(permission));
}

export type TPermissionHolder = { permissions: readonly TPermission[] };

export function can(holder: TPermissionHolder | null | undefined, permission: TPermission): boolean {
  return !!holder && holder.permissions.includes(permission);
}

export function permissionsBeyond(holder: TPermissionHolder, wanted: readonly TPermission[]): TPermission[] {
  return wanted.filter((permission) => !holder.permissions.includes(permission));
}

// Whoever holds this may change people and roles: holding it is being an administrator, which dual control guards.
export const administrationPermission: TPermission = "users.manage";
