import { describe, expect, it } from "vitest";
import {
  administrationPermission,
  can,
  isPermission,
  knownPermissions,
  permissionGroups,
  permissions,
  permissionsBeyond,
} from "./permissions";

describe("the permission catalog", () => {
  it("lists each permission once, in one group", () => {
    expect(new Set(permissions).size).toBe(permissions.length);
    expect(permissions).toEqual(Object.values(permissionGroups).flat());
    expect(permissions).toContain(administrationPermission);
  });

  it("tells a catalog permission from any other string", () => {
    expect(isPermission("refunds.request")).toBe(true);
    expect(isPermission("refunds.everything")).toBe(false);
    expect(knownPermissions(["webhooks.view", "gone.permission", "payments.view"])).toEqual([
      "payments.view",
      "webhooks.view",
    ]);
  });

  it("grants only what the holder holds, and nothing to no one", () => {
    expect(can({ permissions: ["payments.view"] }, "payments.view")).toBe(true);
    expect(can({ permissions: ["payments.view"] }, "users.manage")).toBe(false);
    expect(can(null, "payments.view")).toBe(false);
    expect(can(undefined, "payments.view")).toBe(false);
  });

  it("names what a person would give beyond what they hold", () => {
    expect(permissionsBeyond({ permissions: ["payments.view"] }, ["payments.view", "users.manage"])).toEqual([
      "users.manage",
    ]);
    expect(permissionsBeyond({ permissions: permissions }, permissions)).toEqual([]);
  });
});
