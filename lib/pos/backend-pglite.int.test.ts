import { randomBytes, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";

// The POS backend on the embedded database (PGlite, one connection), as the demo runs it: the raw SQL of the hot
// paths and the activation transaction behave as on PostgreSQL.

let embedded: { close: () => Promise<void> } | undefined;
afterAll(async () => embedded?.close());

describe("POS backend on PGlite", () => {
  let routes: {
    activate: (request: Request) => Promise<Response>;
    config: (request: Request) => Promise<Response>;
    report: (request: Request) => Promise<Response>;
  };
  let apiKey = "";
  const secret = randomBytes(32).toString("base64url");

  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
    const { db } = await import("@/lib/db/client");
    const { generatePosApiKey, hashPosApiKey } = await import("./api-key-format");
    const { sealSellerTokenSecret, sealTokenRegistroTls } = await import("./secrets");
    const id = randomUUID();
    const tenantId = randomUUID();
    const { key, prefix } = generatePosApiKey();
    apiKey = key;
    await db.posApiKey.create({
      data: {
        id,
        tenantId,
        name: "pglite",
        prefix,
        keyHash: hashPosApiKey(key),
        sellerTokenAlgorithm: "HS256",
        sellerTokenSecretCiphertext: sealSellerTokenSecret(secret, id),
      },
    });
    // The tenant's default configuration, so its PDVs get a complete one.
    await db.posTransactionConfig.create({
      data: {
        tenantId,
        empresaGateway: "PGLITE",
        enderecoGateway: "gateway.example.com:443",
        cnpjCpf: "11222333000181",
        comExterna: "1",
        tokenRegistroTlsCiphertext: sealTokenRegistroTls("pglite-tls", { tenantId }),
        cnpjAutomacao: "11222333000181",
        cnpjFacilitador: "11222333000181",
      },
    });
    routes = {
      activate: (await import("@/app/v1/sellers/activate/route")).POST,
      config: (await import("@/app/v1/transactions/config/route")).GET,
      report: (await import("@/app/v1/transactions/route")).POST,
    };
  });

  const post = (path: string, body: unknown, key = apiKey) =>
    new Request(`http://127.0.0.1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("activates, resolves the configuration and stores a report once, flagging a conflict", async () => {
    const { posSellerTokenAudience } = await import("./seller-token");
    const token = await new SignJWT({ sub: "seller-pglite", aud: posSellerTokenAudience, jti: randomUUID() })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(secret));
    const activation = await routes.activate(post("/v1/sellers/activate", { sellerToken: token }));
    expect(activation.status).toBe(200);
    const { posId } = (await activation.json()) as { posId: string };
    expect((await routes.activate(post("/v1/sellers/activate", { sellerToken: token }))).status).toBe(422);

    const config = await routes.config(
      new Request(`http://127.0.0.1/v1/transactions/config?posId=${posId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      }),
    );
    expect(config.status).toBe(200);

    const report = {
      posId,
      approved: true,
      codResp: 0,
      nsuGateway: "NSU1",
      nsuHost: "H1",
      cardBrand: "MASTERCARD",
      acquirerNetwork: "CIELO",
      authorizationCode: "X1",
      installments: 2,
      amountInCents: 5000,
      occurredAt: new Date(Date.now() - 60_000).toISOString(),
    };
    expect((await routes.report(post("/v1/transactions", report))).status).toBe(202);
    expect((await routes.report(post("/v1/transactions", report))).status).toBe(202);
    expect((await routes.report(post("/v1/transactions", { ...report, installments: 3 }))).status).toBe(409);
    expect((await routes.report(post("/v1/transactions", report, "pos_live_AAAAAAAA_x"))).status).toBe(401);

    const { db } = await import("@/lib/db/client");
    const stored = await db.posTransactionReport.findMany({ where: { posId }, include: { conflicts: true } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ installments: 2, occurredAt: new Date(report.occurredAt) });
    expect(stored[0]!.conflicts).toHaveLength(1);
  });
});
