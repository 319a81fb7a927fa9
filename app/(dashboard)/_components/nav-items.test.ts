import { describe, expect, it } from "vitest";

import type { TPermission } from "@/lib/auth/permissions";
import { permissionsOfRole } from "@/lib/auth/roles";
import { findActiveNavHref, isNavItemActive, navSections, navSectionsFor } from "./nav-items";

describe("isNavItemActive", () => {
  it("matches the page and pages below it", () => {
    expect(isNavItemActive("/pix", "/pix")).toBe(true);
    expect(isNavItemActive("/pix", "/pix/abc123")).toBe(true);
  });

  it("does not match a page that merely starts with the same letters", () => {
    expect(isNavItemActive("/pos", "/post")).toBe(false);
    expect(isNavItemActive("/pix", "/")).toBe(false);
  });

  it("marks home on the home page only", () => {
    expect(isNavItemActive("/", "/")).toBe(true);
    expect(isNavItemActive("/", "/pix")).toBe(false);
  });
});

describe("findActiveNavHref", () => {
  it("marks the most specific link only", () => {
    expect(findActiveNavHref("/webhooks/deliveries/abc")).toBe("/webhooks/deliveries");
    expect(findActiveNavHref("/webhooks/signature-check")).toBe("/webhooks");
    expect(findActiveNavHref("/")).toBe("/");
    expect(findActiveNavHref("/pix/abc")).toBe("/pix");
  });
});

describe("navSections", () => {
  const keysFor = (held: readonly TPermission[]) => navSectionsFor(held).flatMap((s) => s.items.map((i) => i.key));

  it("keeps saved cards, point of sale, users, webhooks, jobs, audit and settings from Operations", () => {
    const all = keysFor(permissionsOfRole("administrator", null));
    const operations = keysFor(permissionsOfRole("operations", null));
    const hidden = all.filter((key) => !operations.includes(key));
    expect(hidden.sort()).toEqual(["audit", "cards", "jobs", "pos", "settings", "users", "webhooks"]);
  });

  it("shows each item only to a role holding its permission", () => {
    expect(keysFor(["payments.view", "users.manage"])).toContain("users");
    expect(keysFor(["payments.view"])).not.toContain("users");
    expect(keysFor(permissionsOfRole("developer", null))).toEqual(expect.arrayContaining(["webhooks", "jobs", "pos"]));
    expect(keysFor([])).toEqual([]);
  });

  it("shows pending approvals to everyone: Operations see what waits, approvers act on it", () => {
    expect(keysFor(permissionsOfRole("viewer", null))).toContain("approvals");
  });

  it("shows customers to Operations and Administrators", () => {
    expect(keysFor(permissionsOfRole("operations", null))).toContain("customers");
    expect(keysFor(permissionsOfRole("administrator", null))).toContain("customers");
    expect(findActiveNavHref("/customers/52998224725")).toBe("/customers");
  });

  it("opens with home, for everyone", () => {
    expect(navSections[0]?.items[0]).toMatchObject({ key: "home", href: "/", permission: "payments.view" });
    expect(navSectionsFor(permissionsOfRole("viewer", null))[0]?.items[0]).toMatchObject({ key: "home" });
  });

  it("has unique links", () => {
    const hrefs = navSections.flatMap((s) => s.items.map((i) => i.href));
    expect(new Set(hrefs).size).toBe(hrefs.length);
  });
});
