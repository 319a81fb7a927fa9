import { describe, expect, it } from "vitest";

import { findActiveNavHref, isNavItemActive, navSections } from "./nav-items";

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
  it("keeps saved cards, point of sale, users, webhooks, jobs, audit and settings in the admin-only section", () => {
    const adminKeys = navSections.filter((s) => s.isAdminOnly).flatMap((s) => s.items.map((i) => i.key));
    expect(adminKeys.sort()).toEqual(["audit", "cards", "jobs", "pos", "settings", "users", "webhooks"]);
  });

  it("shows pending approvals to everyone: staff see what waits, admins act on it", () => {
    const everyoneKeys = navSections.filter((s) => !s.isAdminOnly).flatMap((s) => s.items.map((i) => i.key));
    expect(everyoneKeys).toContain("approvals");
  });

  it("shows customers to staff and admins", () => {
    const everyoneKeys = navSections.filter((s) => !s.isAdminOnly).flatMap((s) => s.items.map((i) => i.key));
    expect(everyoneKeys).toContain("customers");
    expect(findActiveNavHref("/customers/52998224725")).toBe("/customers");
  });

  it("opens with home, for everyone", () => {
    expect(navSections[0]?.isAdminOnly).toBe(false);
    expect(navSections[0]?.items[0]).toMatchObject({ key: "home", href: "/" });
  });

  it("has unique links", () => {
    const hrefs = navSections.flatMap((s) => s.items.map((i) => i.href));
    expect(new Set(hrefs).size).toBe(hrefs.length);
  });
});
