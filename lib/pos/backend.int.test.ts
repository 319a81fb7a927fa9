import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as activateRoute } from "@/app/v1/sellers/activate/route";
import { GET as configRoute } from "@/app/v1/transactions/config/route";
import { POST as reportRoute } from "@/app/v1/transactions/route";
import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { listenForChanges } from "@/lib/testing/heard-changes";
import { generatePosApiKey, hashPosApiKey } from "./api-key-format";
import { posFailureCount } from "./errors";
import { posRateLimiter } from "./rate-limit";
import { sealSellerTokenSecret, sealTokenRegistroTls } from "./secrets";
import { posSellerTokenAudience, posSellerTokenAudienceFor } from "./seller-token";

// The POS backend (docs/pos.md) through its route handlers, on real PostgreSQL.

const base = "http://127.0.0.1:3000";

type TKeyOptions = {
  tenantId?: string;
  expiresAt?: Date;
  revokedAt?: Date;
  algorithm?: "HS256" | "RS256" | "ES256";
  publicKey?: string;
  jwksUrl?: string;
  secret?: string;
};

async function createKey(options: TKeyOptions = {}) {
  const id = randomUUID();
  const { key, prefix } = generatePosApiKey();
  await db.posApiKey.create({
    data: {
      id,
      tenantId: options.tenantId ?? randomUUID(),
      name: "test",
      prefix,
      keyHash: hashPosApiKey(key),
      expiresAt: options.expiresAt,
      revokedAt: options.revokedAt,
      sellerTokenAlgorithm: options.algorithm ?? (options.secret ? "HS256" : null),
      sellerTokenSecretCiphertext: options.secret ? sealSellerTokenSecret(options.secret, id) : null,
      sellerTokenPublicKey: options.publicKey,
      sellerTokenJwksUrl: options.jwksUrl,
    },
  });
  return { id, key, tenantId: (await db.posApiKey.findUniqueOrThrow({ where: { id } })).tenantId };
}

const hsSecret = randomBytes(32).toString("base64url");

async function hsToken(claims: JWTPayload = {}, secret = hsSecret, expiresIn: string | number = "5m") {
  let jwt = new SignJWT({
    aud: posSellerTokenAudience,
    sub: "seller-1",
    jti: randomUUID(),
    ...claims,
  }).setProtectedHeader({ alg: "HS256", typ: "JWT" });
  if (expiresIn !== "none") jwt = jwt.setIssuedAt().setExpirationTime(expiresIn);
  return jwt.sign(new TextEncoder().encode(secret));
}

function request(method: string, path: string, key: string | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  return new Request(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function call(response: Promise<Response>) {
  const res = await response;
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

const activate = (key: string | null, body: unknown) =>
  call(activateRoute(request("POST", "/v1/sellers/activate", key, body)));
const config = (key: string | null, posId?: string) =>
  call(
    configRoute(
      request("GET", `/v1/transactions/config${posId === undefined ? "" : `?posId=${encodeURIComponent(posId)}`}`, key),
    ),
  );
const report = (key: string | null, body: unknown) => call(reportRoute(request("POST", "/v1/transactions", key, body)));

function saleReport(posId: string, overrides: Record<string, unknown> = {}) {
  return {
    posId,
    approved: true,
    codResp: 0,
    nsuGateway: `NSU${randomUUID().slice(0, 8)}`,
    nsuHost: "123456",
    cardBrand: "VISA",
    acquirerNetwork: "REDE",
    authorizationCode: "A1B2C3",
    installments: 1,
    amountInCents: 12_345,
    occurredAt: new Date(Date.now() - 3_600_000).toISOString(),
    ...overrides,
  };
}

let hsKey: Awaited<ReturnType<typeof createKey>>;

async function activated(key = hsKey, sub = `seller-${randomUUID()}`) {
  const result = await activate(key.key, { sellerToken: await hsToken({ sub }) });
  expect(result.status).toBe(200);
  return result.body as { sellerId: string; posId: string; subEstablishmentRef: string; tlsRegistered: boolean };
}

beforeAll(async () => {
  hsKey = await createKey({ secret: hsSecret });
});

beforeEach(() => {
  posRateLimiter.reset();
});

describe("API key (all three calls)", () => {
  it("answers 401 {code, message} without a key, with a malformed or unknown key, on every endpoint", async () => {
    const unknown = generatePosApiKey().key;
    for (const key of [null, "", "not-a-key", unknown]) {
      for (const result of [
        await activate(key, { sellerToken: "x" }),
        await config(key, "pos_x"),
        await report(key, saleReport("pos_x")),
      ]) {
        expect(result.status).toBe(401);
        expect(result.body).toEqual({ code: 401, message: "API key missing or invalid" });
      }
    }
    const scheme = await call(
      configRoute(
        new Request(`${base}/v1/transactions/config?posId=x`, { headers: { authorization: `Basic ${unknown}` } }),
      ),
    );
    expect(scheme.status).toBe(401);
    expect(posFailureCount("config", 401, "missing_key")).toBeGreaterThan(0);
  });

  it("refuses an expired key and a revoked key on the very next request", async () => {
    const expired = await createKey({ secret: hsSecret, expiresAt: new Date(Date.now() - 1000) });
    expect((await config(expired.key, "pos_x")).status).toBe(401);

    const key = await createKey({ secret: hsSecret });
    const { posId } = await activated(key);
    // Past authentication (the PDV has no configuration yet: 422, not 401).
    expect((await config(key.key, posId)).status).toBe(422);
    await db.posApiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    expect((await config(key.key, posId)).status).toBe(401);
    expect((await report(key.key, saleReport(posId))).status).toBe(401);
    expect(posFailureCount("config", 401, "revoked_key")).toBeGreaterThan(0);
    expect(posFailureCount("config", 401, "expired_key")).toBeGreaterThan(0);
  });

  it("verifies a key this process knows inside the report's statement: revoked, expired or deleted, it is refused", async () => {
    const key = await createKey({ secret: hsSecret });
    const { posId } = await activated(key);
    expect((await report(key.key, saleReport(posId))).status).toBe(202);
    expect((await db.posApiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).toBeInstanceOf(Date);
    const revokedBefore = posFailureCount("report", 401, "revoked_key");
    await db.posApiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    const revoked = await report(key.key, saleReport(posId));
    expect(revoked).toMatchObject({ status: 401, body: { code: 401, message: "API key missing or invalid" } });
    expect(posFailureCount("report", 401, "revoked_key")).toBe(revokedBefore + 1);
    // A bad body with a refused key still answers 401, not 422.
    expect((await report(key.key, { posId })).status).toBe(401);
    await db.posApiKey.update({ where: { id: key.id }, data: { revokedAt: null, expiresAt: new Date() } });
    expect((await report(key.key, saleReport(posId))).status).toBe(401);
    await db.posTransactionReport.deleteMany({ where: { posId } });
    await db.posDevice.deleteMany({ where: { posId } });
    await db.posApiKey.delete({ where: { id: key.id } });
    expect((await report(key.key, saleReport(posId))).status).toBe(401);
    expect(await db.posTransactionReport.count({ where: { posId } })).toBe(0);
  });

  it("records lastUsedAt, at most once a minute", async () => {
    const key = await createKey({ secret: hsSecret });
    await config(key.key, "pos_unknown");
    const first = (await db.posApiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await config(key.key, "pos_unknown");
    expect((await db.posApiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).toEqual(first);
  });

  it("rate-limits per key: 429 with Retry-After once the burst is spent", async () => {
    const saved = posRateLimiter.rule;
    posRateLimiter.rule = { perSecond: 1, burst: 3 };
    try {
      const key = await createKey({ secret: hsSecret });
      const other = await createKey({ secret: hsSecret });
      for (let i = 0; i < 3; i += 1) expect((await config(key.key, "pos_unknown")).status).toBe(404);
      const limited = await config(key.key, "pos_unknown");
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("1");
      expect(limited.body).toEqual({ code: 429, message: "too many requests for this API key" });
      expect((await config(other.key, "pos_unknown")).status).toBe(404);
    } finally {
      posRateLimiter.rule = saved;
    }
  });
});

describe("POST /v1/sellers/activate", () => {
  it("provisions the seller once and a new PDV on every activation", async () => {
    const sub = `seller-${randomUUID()}`;
    const first = await activated(hsKey, sub);
    expect(first).toEqual({
      sellerId: expect.stringMatching(/^sel_/),
      posId: expect.stringMatching(/^pos_/),
      subEstablishmentRef: expect.stringMatching(/^SE/),
      tlsRegistered: false,
    });
    const second = await activated(hsKey, sub);
    expect(second.sellerId).toBe(first.sellerId);
    expect(second.subEstablishmentRef).toBe(first.subEstablishmentRef);
    expect(second.posId).not.toBe(first.posId);
    expect(await db.posDevice.count({ where: { sellerId: first.sellerId } })).toBe(2);
  });

  it("says tlsRegistered when the seller's configuration has a tokenRegistroTls", async () => {
    const { sellerId } = await activated(hsKey, "seller-tls");
    await db.posTransactionConfig.create({
      data: { sellerId, tokenRegistroTlsCiphertext: sealTokenRegistroTls("tls-token", { sellerId }) },
    });
    const again = await activated(hsKey, "seller-tls");
    expect(again.tlsRegistered).toBe(true);
    expect((await db.posDevice.findUniqueOrThrow({ where: { posId: again.posId } })).tlsRegistered).toBe(true);
  });

  it("answers 422 naming the failure for each bad token", async () => {
    const cases: [string, Promise<string> | string, RegExp][] = [
      ["expired", hsToken({ exp: Math.floor(Date.now() / 1000) - 120 }, hsSecret, "none"), /expired/],
      ["bad signature", hsToken({}, randomBytes(32).toString("base64url")), /bad signature/],
      ["wrong audience", hsToken({ aud: "someone-else" }), /wrong audience/],
      ["missing jti", hsToken({ jti: undefined }), /missing claim jti/],
      ["missing sub", hsToken({ sub: undefined }), /missing claim sub/],
      ["missing exp", hsToken({}, hsSecret, "none"), /missing claim exp/],
      ["missing aud", hsToken({ aud: undefined }), /missing claim aud/],
      ["malformed", "not.a.jwt", /malformed/],
      ["too long-lived", hsToken({}, hsSecret, "3d"), /24 hours/],
    ];
    for (const [name, token, message] of cases) {
      const result = await activate(hsKey.key, { sellerToken: await token });
      expect(result.status, name).toBe(422);
      expect(result.body?.code, name).toBe(422);
      expect(String(result.body?.message), name).toMatch(message);
    }
    expect(posFailureCount("activate", 422, "token_expired")).toBeGreaterThan(0);
  });

  it("refuses a replayed token (jti), also when both arrive at once", async () => {
    const token = await hsToken({ sub: "seller-replay" });
    expect((await activate(hsKey.key, { sellerToken: token })).status).toBe(200);
    const replay = await activate(hsKey.key, { sellerToken: token });
    expect(replay).toMatchObject({ status: 422, body: { code: 422, message: expect.stringMatching(/already used/) } });

    const parallel = await hsToken({ sub: "seller-replay" });
    const results = await Promise.all(Array.from({ length: 5 }, () => activate(hsKey.key, { sellerToken: parallel })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
  });

  it("refuses a blocked seller", async () => {
    const { sellerId } = await activated(hsKey, "seller-blocked");
    await db.posSeller.update({ where: { id: sellerId }, data: { status: "BLOCKED", blockedReason: "fraud" } });
    const result = await activate(hsKey.key, { sellerToken: await hsToken({ sub: "seller-blocked" }) });
    expect(result).toMatchObject({ status: 422, body: { code: 422, message: "seller refused" } });
  });

  it("answers 422 when the key has no verifier, or the body has no sellerToken; 400 for a body that is not JSON", async () => {
    const bare = await createKey();
    expect((await activate(bare.key, { sellerToken: await hsToken() })).body?.message).toMatch(/not configured/);
    expect(await activate(hsKey.key, {})).toMatchObject({ status: 422, body: { message: "sellerToken is required" } });
    expect((await activate(hsKey.key, "{not json")).status).toBe(400);
  });

  it("verifies RS256 and ES256 with a public key PEM, and a JWKS URL", async () => {
    for (const alg of ["RS256", "ES256"] as const) {
      const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
      const key = await createKey({ algorithm: alg, publicKey: await exportSPKI(publicKey) });
      const sign = (claims: JWTPayload = {}) =>
        new SignJWT({
          aud: posSellerTokenAudienceFor(key.tenantId),
          sub: `seller-${alg}`,
          jti: randomUUID(),
          ...claims,
        })
          .setProtectedHeader({ alg })
          .setExpirationTime("5m")
          .sign(privateKey);
      expect((await activate(key.key, { sellerToken: await sign() })).status, alg).toBe(200);
      // An HS256 token signed with the PEM text as the secret (algorithm confusion) is refused.
      const confused = await hsToken({}, await exportSPKI(publicKey));
      expect((await activate(key.key, { sellerToken: confused })).body?.message, alg).toMatch(/algorithm/);
      const { privateKey: otherKey } = await generateKeyPair(alg);
      const forged = await new SignJWT({ aud: posSellerTokenAudienceFor(key.tenantId), sub: "x", jti: randomUUID() })
        .setProtectedHeader({ alg })
        .setExpirationTime("5m")
        .sign(otherKey);
      expect((await activate(key.key, { sellerToken: forged })).body?.message, alg).toMatch(/bad signature/);
    }

    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    // A loopback JWKS is fetched only under the local test/demo allowance (lib/pos/jwks.ts).
    process.env.ALLOW_INSECURE_LOCAL_GATEWAY = "1";
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
      const key = await createKey({ algorithm: "ES256", jwksUrl: url });
      const token = await new SignJWT({
        aud: posSellerTokenAudienceFor(key.tenantId),
        sub: "seller-jwks",
        jti: randomUUID(),
      })
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .setExpirationTime("5m")
        .sign(privateKey);
      expect((await activate(key.key, { sellerToken: token })).status).toBe(200);
    } finally {
      delete process.env.ALLOW_INSECURE_LOCAL_GATEWAY;
      server.close();
    }
  });
});

describe("GET /v1/transactions/config", () => {
  it("merges the seller's configuration with the PDV override, with defaults, not cacheable", async () => {
    const { sellerId, posId } = await activated();
    // Nothing configured: a 422 that says so, never a 200 with empty fields.
    const bare = await config(hsKey.key, posId);
    expect(bare).toMatchObject({ status: 422, body: { message: expect.stringMatching(/not set for this PDV/) } });
    expect(bare.headers.get("cache-control")).toBe("no-store");

    await db.posTransactionConfig.create({
      data: {
        sellerId,
        empresaGateway: "EMP01",
        enderecoGateway: "gw.example.com:443",
        cnpjCpf: "11222333000181",
        comExterna: "1",
        tokenRegistroTlsCiphertext: sealTokenRegistroTls("seller-tls", { sellerId }),
        cnpjAutomacao: "11222333000181",
        cnpjFacilitador: "11222333000181",
        primaryColor: "#112233",
      },
    });
    await db.posTransactionConfig.create({
      data: {
        posId,
        empresaGateway: "EMP02",
        tokenRegistroTlsCiphertext: sealTokenRegistroTls("pdv-tls", { posId }),
        logoUrl: "https://cdn.example.com/logo.png",
      },
    });
    const merged = await config(hsKey.key, posId);
    expect(merged.body).toMatchObject({
      empresaGateway: "EMP02",
      enderecoGateway: "gw.example.com:443",
      comExterna: "1",
      tokenRegistroTls: "pdv-tls",
      branding: { logoUrl: "https://cdn.example.com/logo.png", primaryColor: "#112233", secondaryColor: "#f8fafc" },
    });
    expect(merged.headers.get("cache-control")).toBe("no-store");
    expect((await db.posDevice.findUniqueOrThrow({ where: { posId } })).lastConfigAt).toBeInstanceOf(Date);
  });

  it("answers 422 without posId, 404 for an unknown or another tenant's PDV, 422 for a blocked PDV or seller", async () => {
    expect(await config(hsKey.key)).toMatchObject({ status: 422, body: { code: 422, message: "posId is required" } });
    expect(await config(hsKey.key, "pos_nope")).toMatchObject({
      status: 404,
      body: { code: 404, message: "unknown posId" },
    });

    const otherTenant = await createKey({ secret: hsSecret });
    const { posId: foreign } = await activated(otherTenant);
    expect((await config(hsKey.key, foreign)).status).toBe(404);

    const { posId, sellerId } = await activated();
    await db.posDevice.update({ where: { posId }, data: { status: "BLOCKED" } });
    expect(await config(hsKey.key, posId)).toMatchObject({ status: 422, body: { message: "PDV blocked" } });
    await db.posDevice.update({ where: { posId }, data: { status: "ACTIVE" } });
    await db.posSeller.update({ where: { id: sellerId }, data: { status: "BLOCKED" } });
    expect(await config(hsKey.key, posId)).toMatchObject({ status: 422, body: { message: "seller blocked" } });
  });

  it("works for every key of the tenant (a rotated key keeps the PDVs)", async () => {
    const { posId, sellerId } = await activated();
    await db.posTransactionConfig.create({
      data: {
        sellerId,
        empresaGateway: "EMP01",
        enderecoGateway: "gw.example.com:443",
        cnpjCpf: "11222333000181",
        comExterna: "1",
        tokenRegistroTlsCiphertext: sealTokenRegistroTls("seller-tls", { sellerId }),
        cnpjAutomacao: "11222333000181",
        cnpjFacilitador: "11222333000181",
      },
    });
    const sibling = await createKey({ tenantId: hsKey.tenantId });
    expect((await config(sibling.key, posId)).status).toBe(200);
  });
});

describe("POST /v1/transactions", () => {
  it("stores a report and answers 202 without a body", async () => {
    const { posId, sellerId } = await activated();
    const body = saleReport(posId);
    const result = await report(hsKey.key, body);
    expect(result).toMatchObject({ status: 202, body: null });
    const stored = await db.posTransactionReport.findUniqueOrThrow({
      where: { posId_nsuGateway: { posId, nsuGateway: body.nsuGateway } },
    });
    expect(stored).toMatchObject({
      sellerId,
      tenantId: hsKey.tenantId,
      amountCents: 12_345,
      occurredAt: new Date(body.occurredAt),
      matchStatus: "PENDING",
    });
    expect((await db.posDevice.findUniqueOrThrow({ where: { posId } })).lastReportAt).toBeInstanceOf(Date);
  });

  it("tells open pages of a stored report, once: a repeat stores nothing and tells nothing", async () => {
    const changes = await listenForChanges("pos_sale");
    try {
      const { posId } = await activated();
      const body = saleReport(posId);
      expect((await report(hsKey.key, body)).status).toBe(202);
      expect((await report(hsKey.key, body)).status).toBe(202);
      const stored = await db.posTransactionReport.findUniqueOrThrow({
        where: { posId_nsuGateway: { posId, nsuGateway: body.nsuGateway } },
      });
      expect(await changes.heardOf(stored.id)).toEqual([stored.id]);
    } finally {
      await changes.close();
    }
  });

  it("answers 422 naming the bad field, 400 for a body that is not JSON", async () => {
    const { posId } = await activated();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ occurredAt: "2026-11-24T12:00:00Z" }, /^occurredAt.*milliseconds/],
      [{ occurredAt: "2026-11-24T12:00:00.123-03:00" }, /^occurredAt/],
      [{ occurredAt: "2026-02-30T12:00:00.000Z" }, /^occurredAt/],
      [{ amountInCents: -1 }, /^amountInCents/],
      [{ amountInCents: 10.5 }, /^amountInCents.*integer/],
      [{ amountInCents: "100" }, /^amountInCents/],
      [{ approved: "yes" }, /^approved/],
      [{ nsuGateway: undefined }, /^nsuGateway is required/],
      [{ installments: 1.5 }, /^installments/],
    ];
    for (const [override, message] of cases) {
      const result = await report(hsKey.key, saleReport(posId, override));
      expect(result.status, JSON.stringify(override)).toBe(422);
      expect(String(result.body?.message), JSON.stringify(override)).toMatch(message);
    }
    expect((await report(hsKey.key, "{")).status).toBe(400);
    expect(await db.posTransactionReport.count({ where: { posId } })).toBe(0);
  });

  it("answers 404 for an unknown or another tenant's PDV, 422 for a blocked one", async () => {
    expect((await report(hsKey.key, saleReport("pos_nope"))).status).toBe(404);
    const other = await createKey({ secret: hsSecret });
    const { posId: foreign } = await activated(other);
    expect((await report(hsKey.key, saleReport(foreign))).status).toBe(404);
    expect(await db.posTransactionReport.count({ where: { posId: foreign } })).toBe(0);

    const { posId } = await activated();
    await db.posDevice.update({ where: { posId }, data: { status: "BLOCKED" } });
    expect(await report(hsKey.key, saleReport(posId))).toMatchObject({ status: 422, body: { message: "PDV blocked" } });
  });

  it("is idempotent on (posId, nsuGateway): an identical repeat is 202 and stored once", async () => {
    const { posId } = await activated();
    const body = saleReport(posId);
    expect((await report(hsKey.key, body)).status).toBe(202);
    expect((await report(hsKey.key, body)).status).toBe(202);
    expect(await db.posTransactionReport.count({ where: { posId } })).toBe(1);
    expect(await db.posReportConflict.count({ where: { report: { posId } } })).toBe(0);
  });

  it("keeps a conflicting repeat as a flagged conflict (409), never overwriting the stored report", async () => {
    const { posId } = await activated();
    const body = saleReport(posId);
    await report(hsKey.key, body);
    const changed = { ...body, amountInCents: 99_999 };
    const conflict = await report(hsKey.key, changed);
    expect(conflict).toMatchObject({ status: 409, body: { code: 409 } });
    expect(String(conflict.body?.message)).toContain(body.nsuGateway);
    expect((await report(hsKey.key, changed)).status).toBe(409);
    const stored = await db.posTransactionReport.findUniqueOrThrow({
      where: { posId_nsuGateway: { posId, nsuGateway: body.nsuGateway } },
      include: { conflicts: true },
    });
    expect(stored.amountCents).toBe(12_345);
    expect(stored.conflicts).toHaveLength(1);
    expect(stored.conflicts[0]!.body).toMatchObject({ amountInCents: 99_999 });
    expect(posFailureCount("report", 409, "report_conflict")).toBeGreaterThan(0);
  });

  it("compares a known key's repeat with the stored report its own statement returned, without reading it again", async () => {
    const { posId } = await activated();
    const body = saleReport(posId);
    expect((await report(hsKey.key, body)).status).toBe(202);
    const reads = vi.spyOn(db.posTransactionReport, "findUnique");
    try {
      expect((await report(hsKey.key, body)).status).toBe(202);
      expect(
        (await report(hsKey.key, { ...body, occurredAt: new Date(Date.now() - 60_000).toISOString() })).status,
      ).toBe(409);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it("stores 20 parallel identical reports once", async () => {
    const { posId } = await activated();
    const body = saleReport(posId);
    const results = await Promise.all(Array.from({ length: 20 }, () => report(hsKey.key, body)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(await db.posTransactionReport.count({ where: { posId } })).toBe(1);
    expect(await db.posReportConflict.count({ where: { report: { posId } } })).toBe(0);
  });

  it("answers reports sent together by several PDVs and tenants each as if it had come alone", async () => {
    const otherKey = await createKey({ secret: hsSecret });
    const [first, second, other] = [await activated(), await activated(), await activated(otherKey)];
    // Each key once alone first: the process then knows it, and its reports go in batches.
    const earlier = saleReport(first.posId);
    expect((await report(hsKey.key, earlier)).status).toBe(202);
    expect((await report(otherKey.key, saleReport(other.posId))).status).toBe(202);
    const sales = [first, second, other].flatMap(({ posId }, device) =>
      Array.from({ length: 8 }, (_, index) => saleReport(posId, { amountInCents: 1000 * (device + 1) + index })),
    );
    const sent = [
      ...sales.map((sale) => ({ key: sale.posId === other.posId ? otherKey.key : hsKey.key, sale })),
      { key: hsKey.key, sale: sales[0]! },
      { key: hsKey.key, sale: { ...earlier, amountInCents: 99_999 } },
      { key: hsKey.key, sale: saleReport(other.posId) },
    ];
    const results = await Promise.all(sent.map(({ key, sale }) => report(key, sale)));

    expect(results.map((result) => result.status)).toEqual([...Array(sales.length + 1).fill(202), 409, 404]);
    for (const sale of sales) {
      const stored = await db.posTransactionReport.findUniqueOrThrow({
        where: { posId_nsuGateway: { posId: sale.posId, nsuGateway: sale.nsuGateway } },
      });
      expect(stored.amountCents).toBe(sale.amountInCents);
    }
    expect(await db.posTransactionReport.count({ where: { posId: first.posId } })).toBe(9);
    expect(await db.posTransactionReport.count({ where: { posId: other.posId } })).toBe(9);
    expect(await db.posReportConflict.count({ where: { report: { posId: first.posId } } })).toBe(1);
    const devices = await db.posDevice.findMany({ where: { posId: { in: [first.posId, second.posId, other.posId] } } });
    expect(devices.map((device) => device.lastReportAt)).not.toContain(null);
  });

  it("stores each report of a batch that fails on its own, and answers every one as if nothing had happened", async () => {
    const { posId } = await activated();
    expect((await report(hsKey.key, saleReport(posId))).status).toBe(202);
    // Refuses any statement that inserts two reports of this PDV: its batches fail, single reports pass.
    const name = `refuse_batches_${randomBytes(4).toString("hex")}`;
    await db.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF (SELECT count(*) FROM new_rows WHERE "posId" = '${posId}') > 1 THEN RAISE EXCEPTION 'two reports'; END IF;
      RETURN NULL; END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER ${name} AFTER INSERT ON "PosTransactionReport"
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`);
    const warned = vi.spyOn(log, "warn");
    try {
      const sales = Array.from({ length: 12 }, () => saleReport(posId));
      const results = await Promise.all(sales.map((sale) => report(hsKey.key, sale)));

      expect(results.map((result) => result.status)).toEqual(Array(12).fill(202));
      expect(await db.posTransactionReport.count({ where: { posId } })).toBe(13);
      const failedBatches = warned.mock.calls.filter(([, message]) => String(message).includes("a batch failed"));
      expect(failedBatches.length).toBeGreaterThan(0);
    } finally {
      warned.mockRestore();
      await db.$executeRawUnsafe(`DROP TRIGGER ${name} ON "PosTransactionReport"`);
      await db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    }
  });
});

afterAll(() => {
  posRateLimiter.reset();
});
