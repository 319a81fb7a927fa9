import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countUnreadAlerts, listAlertIncidents } from "@/lib/alerts/incidents";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { listMirrorDrift } from "@/lib/reconcile/drift";
import { findCardTokens } from "@/lib/saved-cards/cards";
import { ZCardTokenFilters } from "@/lib/saved-cards/schemas";
import { createThrowawayDatabase, type TThrowawayDatabase } from "@/lib/testing/postgres-server";
import { truncateAllTables } from "@/lib/testing/truncate-tables";
import { createPrismaClient, db, disconnectDb } from "./client";
import { applyMigrations } from "./migrate";
import { hasReadReplica, waitForReplicaToCatchUp } from "./read-replica";

// The "replica" is a second database holding other rows than the primary: what a read returns names the database it
// read. Outside a request there is no own write to wait for, so every such read goes to DATABASE_READ_URL.

const cache = globalThis as typeof globalThis & { __paymentsReplica?: unknown };

async function seed(target: PrismaClient, side: "primary" | "replica", openIncidents: number): Promise<void> {
  await target.cardToken.create({
    data: {
      token: `tok_${side}`,
      status: "ATV",
      brandCode: "1",
      bin: "411111",
      lastFour: "1111",
      expiry: "12/39",
      raw: {},
      syncedAt: new Date(),
    },
  });
  await target.mirrorDrift.create({
    data: {
      resourceKind: "pix_charge",
      resourceId: `txid-${side}`,
      fields: ["status"],
      mirrorValue: { status: "PAID" },
      gatewayValue: { status: "ACTIVE" },
      source: "refresh",
    },
  });
  for (let index = 0; index < openIncidents; index++)
    await target.alertIncident.create({
      data: { ruleKey: "gatewayErrorRate", subject: `${side}-${index}`, lastValue: 1, detail: {} },
    });
}

describe.runIf(process.env.DATABASE_URL)("reads that may lag go to the read replica", () => {
  let replicaDatabase: TThrowawayDatabase;
  let replica: PrismaClient;

  beforeAll(async () => {
    replicaDatabase = await createThrowawayDatabase("payments_replica_test");
    await applyMigrations({ kind: "postgres", url: replicaDatabase.url });
    replica = createPrismaClient({ kind: "postgres", url: replicaDatabase.url });
    process.env.DATABASE_READ_URL = replicaDatabase.url;
    cache.__paymentsReplica = undefined;
  });

  afterAll(async () => {
    delete process.env.DATABASE_READ_URL;
    await replica?.$disconnect();
    await disconnectDb();
    await replicaDatabase?.drop();
  });

  beforeEach(async () => {
    await truncateAllTables(db);
    await truncateAllTables(replica);
    await seed(db, "primary", 2);
    await seed(replica, "replica", 1);
  });

  it("the saved cards list", async () => {
    const page = await findCardTokens(ZCardTokenFilters.parse({}));
    expect(page.rows.map((card) => card.token)).toEqual(["tok_replica"]);
  });

  it("the mirror drift list", async () => {
    expect((await listMirrorDrift()).map((drift) => drift.resourceId)).toEqual(["txid-replica"]);
  });

  it("live updates do not wait for a server that is not replaying (a streaming standby is waited for: cluster test)", async () => {
    expect(hasReadReplica()).toBe(true);
    const startedAt = Date.now();
    expect(await waitForReplicaToCatchUp(5_000)).toBe(true);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it("the alert incidents and the bell's unread count, which every open dashboard polls", async () => {
    const { open } = await listAlertIncidents();
    expect(open.map((incident) => incident.subject)).toEqual(["replica-0"]);
    expect(await countUnreadAlerts("00000000-0000-4000-8000-000000000001")).toBe(1);
  });
});
