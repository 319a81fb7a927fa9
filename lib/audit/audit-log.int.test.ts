import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { findAuditEntries, recordAudit } from "./audit-log";
import { ZAuditFilters } from "./schemas";

const filters = (params: Record<string, string>) => ZAuditFilters.parse(params);

describe("audit log", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
  });

  it("records who did what, on what, from where", async () => {
    await recordAudit({
      actor: { id: null, email: "ana@example.com" },
      action: "auth.sign_in_failed",
      resourceType: "user",
      ip: "203.0.113.1",
      userAgent: "x".repeat(900),
      metadata: { reason: "wrong_password" },
    });
    const [entry] = (await findAuditEntries(filters({}))).rows;
    expect(entry).toMatchObject({
      actorEmail: "ana@example.com",
      action: "auth.sign_in_failed",
      ip: "203.0.113.1",
      metadata: { reason: "wrong_password" },
    });
    expect(entry!.userAgent).toHaveLength(500);
  });

  it("filters by action, actor, resource and São Paulo calendar days, newest first, by page", async () => {
    const at = (iso: string) => new Date(iso);
    const rows = [
      {
        occurredAt: at("2026-03-01T02:30:00Z"),
        action: "auth.sign_in",
        actorEmail: "ana@example.com",
        resourceType: "user",
        resourceId: "u1",
      }, // 28 Feb in São Paulo
      {
        occurredAt: at("2026-03-01T03:30:00Z"),
        action: "auth.sign_in",
        actorEmail: "bia@example.com",
        resourceType: "user",
        resourceId: "u2",
      },
      {
        occurredAt: at("2026-03-02T12:00:00Z"),
        action: "user.created",
        actorEmail: "ana@example.com",
        resourceType: "user",
        resourceId: "u3",
      },
    ];
    await db.auditLog.createMany({ data: rows });

    expect((await findAuditEntries(filters({}))).rows.map((entry) => entry.resourceId)).toEqual(["u3", "u2", "u1"]);
    expect((await findAuditEntries(filters({ action: "auth.sign_in" }))).total).toBe(2);
    expect((await findAuditEntries(filters({ actor: "ANA@" }))).rows.map((entry) => entry.resourceId)).toEqual([
      "u3",
      "u1",
    ]);
    // A substring anywhere in the e-mail, taken literally (no LIKE wildcards).
    expect((await findAuditEntries(filters({ actor: "ia@Example" }))).total).toBe(1);
    expect((await findAuditEntries(filters({ actor: "%" }))).total).toBe(0);
    expect((await findAuditEntries(filters({ actor: "nobody" }))).rows).toEqual([]);
    expect((await findAuditEntries(filters({ resourceType: "user", resourceId: "u2" }))).total).toBe(1);
    expect(
      (await findAuditEntries(filters({ from: "2026-03-01", to: "2026-03-01" }))).rows.map((entry) => entry.resourceId),
    ).toEqual(["u2"]);
    expect((await findAuditEntries(filters({ to: "2026-02-28" }))).rows.map((entry) => entry.resourceId)).toEqual([
      "u1",
    ]);

    const page2 = await findAuditEntries(filters({ page: "2" }), 2);
    expect(page2).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(page2.rows.map((entry) => entry.resourceId)).toEqual(["u1"]);
  });
});
