import { describe, expect, it } from "vitest";
import { permissions } from "./permissions";
import { builtInRoleIds, builtInRoles, defaultRoleId, isBuiltInRole, ownerRoleId, permissionsOfRole } from "./roles";

// What STAFF could do before roles: Operations must keep exactly this, since old STAFF accounts became Operations.
const oldStaffPermissions = [
  "payments.view",
  "exports.download",
  "pix.charge",
  "links.manage",
  "cards.charge",
  "refunds.request",
  "cards.cancel",
  "webhooks.view",
];

describe("built-in roles", () => {
  it.each(builtInRoleIds)("%s holds only catalog permissions, each once", (roleId) => {
    const held = permissionsOfRole(roleId, null);
    expect(held.length).toBeGreaterThan(0);
    for (const permission of held) expect(permissions).toContain(permission);
    expect(new Set(held).size).toBe(held.length);
  });

  it("gives Operations, the default role, what STAFF had and the gateway's health and its alerts", () => {
    expect(defaultRoleId).toBe("operations");
    expect([...permissionsOfRole("operations", null)].sort()).toEqual(
      [...oldStaffPermissions, "health.view", "alerts.receive"].sort(),
    );
  });

  it("gives the Owner and Administrators the whole catalog", () => {
    expect(ownerRoleId).toBe("owner");
    expect([...permissionsOfRole("owner", null)].sort()).toEqual([...permissions].sort());
    expect([...permissionsOfRole("administrator", null)].sort()).toEqual([...permissions].sort());
  });

  it("keeps Support from moving money, exporting and webhooks", () => {
    const support = permissionsOfRole("support", null);
    for (const permission of ["refunds.request", "cards.charge", "exports.download"] as const) {
      expect(support).not.toContain(permission);
    }
    expect(support.filter((permission) => permission.startsWith("webhooks."))).toEqual([]);
  });

  it("lets a Developer manage webhooks but not people", () => {
    const developer = permissionsOfRole("developer", null);
    expect(developer).toContain("webhooks.manage");
    expect(developer).not.toContain("users.manage");
  });

  it("reads a built-in role's permissions from the release, not from what is stored", () => {
    expect(permissionsOfRole("viewer", ["users.manage"])).toEqual(builtInRoles.viewer);
  });
});

describe("custom roles", () => {
  it("keep the stored catalog permissions and ignore unknown ones", () => {
    expect(isBuiltInRole("5b1c0e8e-0000-4000-8000-000000000001")).toBe(false);
    expect(
      permissionsOfRole("5b1c0e8e-0000-4000-8000-000000000001", ["refunds.request", "payouts.send", "payments.view"]),
    ).toEqual(["payments.view", "refunds.request"]);
    expect(permissionsOfRole("5b1c0e8e-0000-4000-8000-000000000001", null)).toEqual([]);
  });
});
