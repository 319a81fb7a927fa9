import { knownPermissions, permissions, type TPermission } from "./permissions";

// Pure: the roles every merchant starts with (docs/roles.md). Their permissions live here, not in the database, so a
// permission added by a release reaches them; custom roles keep theirs in the Role table.

const operations: TPermission[] = [
  "payments.view",
  "exports.download",
  "pix.charge",
  "links.manage",
  "cards.charge",
  "refunds.request",
  "cards.cancel",
  "webhooks.view",
  "health.view",
  "alerts.receive",
];

export const builtInRoles = {
  owner: [...permissions],
  administrator: [...permissions],
  developer: [
    "payments.view",
    "webhooks.view",
    "webhooks.manage",
    "pos.manage",
    "jobs.run",
    "health.view",
    "alerts.manage",
    "alerts.receive",
  ],
  operations,
  support: ["payments.view", "links.manage"],
  analyst: ["payments.view", "exports.download", "customers.viewDocuments"],
  viewer: ["payments.view"],
} satisfies Record<string, TPermission[]>;

export type TBuiltInRoleId = keyof typeof builtInRoles;

export const builtInRoleIds = Object.keys(builtInRoles) as TBuiltInRoleId[];

// What a new person, and an old STAFF account, gets: what STAFF could do, and the gateway's health.
export const defaultRoleId: TBuiltInRoleId = "operations";

export const ownerRoleId: TBuiltInRoleId = "owner";

export function isBuiltInRole(roleId: string): roleId is TBuiltInRoleId {
  return Object.hasOwn(builtInRoles, roleId);
}

export type TRoleNaming = { roleId: string; roleName: string | null };

// A built-in role is named by the catalogs, in the reader's language; a custom one by whoever made it.
export function roleLabel(role: TRoleNaming, builtInName: (roleId: TBuiltInRoleId) => string): string {
  return isBuiltInRole(role.roleId) ? builtInName(role.roleId) : (role.roleName ?? role.roleId);
}

export function builtInRolesHolding(permission: TPermission): TBuiltInRoleId[] {
  return builtInRoleIds.filter((roleId) => (builtInRoles[roleId] as readonly TPermission[]).includes(permission));
}

// Read per request, so a role's change reaches its people's sessions on their next request.
export function permissionsOfRole(roleId: string, storedPermissions: readonly string[] | null): TPermission[] {
  return isBuiltInRole(roleId) ? [...builtInRoles[roleId]] : knownPermissions(storedPermissions ?? []);
}
