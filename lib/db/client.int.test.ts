import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TTestDatabase, testBackends } from "@/lib/testing/test-database";
import { db, disconnectDb, getDatabaseBackend } from "./client";
import { isDatabaseHealthy } from "./health";

describe.each(testBackends)("Prisma client on %s", (backend) => {
  let database: TTestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  beforeEach(() => database.reset());
  afterAll(() => database.close());

  it("writes and reads rows with the schema's defaults", async () => {
    const created = await database.db.user.create({
      data: { email: "ana@example.com", name: "Ana", passwordHash: "x" },
    });
    expect(created).toMatchObject({ roleId: "operations", isActive: true, sessionVersion: 1, locale: "pt-BR" });
    await database.db.auditLog.create({
      data: { actorId: created.id, action: "user.created", metadata: { via: "test" } },
    });
    const found = await database.db.user.findUniqueOrThrow({
      where: { email: "ana@example.com" },
      include: { auditEntries: true },
    });
    expect(found.auditEntries).toEqual([
      expect.objectContaining({ action: "user.created", metadata: { via: "test" } }),
    ]);
  });

  it("reports a unique violation as Prisma's P2002", async () => {
    await database.db.user.create({ data: { email: "dup@example.com", name: "A", passwordHash: "x" } });
    await expect(
      database.db.user.create({ data: { email: "dup@example.com", name: "B", passwordHash: "x" } }),
    ).rejects.toMatchObject({ code: "P2002" });
  });

  it("rolls back an interactive transaction that throws", async () => {
    await expect(
      database.db.$transaction(async (tx) => {
        await tx.user.create({ data: { email: "tx@example.com", name: "T", passwordHash: "x" } });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await database.db.user.count()).toBe(0);
  });
});

describe("db singleton", () => {
  afterAll(() => disconnectDb());

  it("uses the PostgreSQL test database handed over by the global setup", async () => {
    expect(getDatabaseBackend()).toBe("postgres");
    const [row] = await db.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`;
    expect(row?.name).toMatch(/^payments_test_/);
    expect(await db.$transaction(async (tx) => tx.user.count())).toBeGreaterThanOrEqual(0);
  });

  it("is reported healthy", async () => {
    expect(await isDatabaseHealthy()).toBe(true);
  });
});
