import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { PosClient } from "./client";
import { describeBackendContract } from "./contract";
import { HttpBackend } from "./http-backend";
import { SimulatedPaymentApp } from "./payment-app";
import { startPosTestApp, type TPosTestApp } from "./testing/app-fixture";
import { signSellerToken } from "./testing/seller-token";

// The contract suite (contract.ts) with HttpBackend against the app's /v1 route handlers on PostgreSQL
// (testing/app-fixture.ts seeds a tenant key, its HS256 seller-token secret and a blocked seller).

let app: TPosTestApp | null = null;
const shared = async () => {
  app ??= await startPosTestApp();
  return app;
};

afterAll(async () => {
  await app?.server.close();
  await app?.disconnectDb();
});

describeBackendContract("HttpBackend on the app's /v1 routes (PostgreSQL)", async () => {
  const { db, server, key, secret, audience, blockedSellerReference } = await shared();
  const backendWith = (apiKey: string | null) => new HttpBackend({ apiKey: apiKey ?? "", baseUrl: server.url });
  return {
    backend: backendWith(key),
    withApiKey: backendWith,
    issueSellerToken: (reference, overrides = {}) =>
      signSellerToken({ secret: overrides.secret ?? secret, audience }, reference, overrides),
    blockedSellerReference,
    blockPos: async (posId) => {
      await db.posDevice.update({ where: { posId }, data: { status: "BLOCKED" } });
    },
  };
});

describe("HttpBackend on the app: what the server stores", () => {
  it("stores a sale once, and a conflicting repeat aside without applying it", async () => {
    const { db, server, key, secret, audience, tenantId } = await shared();
    const client = new PosClient({ apiKey: key, baseUrl: server.url, logger: { error: () => undefined } });
    const token = await signSellerToken({ secret, audience }, `seller-${randomUUID()}`);
    const { posId } = await client.activate(token);
    const sale = await client.sale({
      posId,
      amountInCents: 4321,
      installments: 2,
      paymentApp: new SimulatedPaymentApp({ nsuStart: 900_001 }),
    });
    expect(sale.isReported).toBe(true);
    const backend = client.backend;
    await backend.reportTransaction(sale.report);
    await expect(backend.reportTransaction({ ...sale.report, amountInCents: 1 })).rejects.toMatchObject({
      status: 409,
    });
    const stored = await db.posTransactionReport.findMany({ where: { posId }, include: { conflicts: true } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      tenantId,
      nsuGateway: "900001",
      amountCents: 4321,
      installments: 2,
      occurredAt: new Date(sale.report.occurredAt),
    });
    expect(stored[0]?.conflicts).toHaveLength(1);
  });
});
