import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "./backend";
import { PosClient } from "./client";
import { BackendError } from "./errors";
import { SimulatedPaymentApp } from "./payment-app";
import { type TransactionReport, ZActivationResult, ZTransactionConfig } from "./schemas";

// Run against InMemoryBackend and against HttpBackend on the app: a rule the two disagree on fails one run.

type TSellerTokenOverrides = {
  expiresInSeconds?: number;
  audience?: string;
  secret?: string;
  jti?: string;
  now?: Date;
};

export type TBackendContractFixture = {
  backend: Backend;
  withApiKey: (apiKey: string | null) => Backend;
  issueSellerToken: (sellerReference: string, overrides?: TSellerTokenOverrides) => Promise<string>;
  blockedSellerReference: string;
  blockPos: (posId: string) => Promise<void>;
  close?: () => Promise<void>;
};

async function rejection(promise: Promise<unknown>): Promise<BackendError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BackendError);
    return error as BackendError;
  }
  throw new Error("expected a BackendError, the call succeeded");
}

const unique = (prefix: string) => `${prefix}-${globalThis.crypto.randomUUID().slice(0, 13)}`;

function reportFor(posId: string, overrides: Partial<TransactionReport> = {}): TransactionReport {
  return {
    posId,
    approved: true,
    codResp: 0,
    nsuGateway: unique("nsu"),
    nsuHost: "000000123",
    cardBrand: "VISA",
    acquirerNetwork: "REDE",
    authorizationCode: "654321",
    installments: 1,
    amountInCents: 1990,
    occurredAt: new Date().toISOString(),
    ...overrides,
  };
}

export function describeBackendContract(name: string, setup: () => Promise<TBackendContractFixture>) {
  describe(`POS backend contract: ${name}`, () => {
    let fixture: TBackendContractFixture;
    const activate = async (reference = unique("seller")) =>
      fixture.backend.activateSeller(await fixture.issueSellerToken(reference));

    beforeAll(async () => {
      fixture = await setup();
    });
    afterAll(async () => {
      await fixture?.close?.();
    });

    describe("authentication (contract 5)", () => {
      for (const [label, key] of [
        ["missing", null],
        ["unknown", "pos_live_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"],
        ["malformed", "not-a-key"],
      ] as const) {
        it(`answers 401 to every call with a ${label} key`, async () => {
          const { posId } = await activate();
          const other = fixture.withApiKey(key);
          const token = await fixture.issueSellerToken(unique("seller"));
          expect((await rejection(other.activateSeller(token))).status).toBe(401);
          expect((await rejection(other.fetchTransactionConfig(posId))).status).toBe(401);
          expect((await rejection(other.reportTransaction(reportFor(posId)))).status).toBe(401);
          // The refused token was not consumed by the unauthenticated call.
          await expect(fixture.backend.activateSeller(token)).resolves.toMatchObject({ posId: expect.any(String) });
        });
      }
    });

    describe("activation (2.1, 2.2)", () => {
      it("activates a seller with a valid token and provisions a PDV", async () => {
        const result = await activate();
        expect(ZActivationResult.parse(result)).toEqual(result);
        expect(result.sellerId).not.toBe("");
        expect(result.posId).not.toBe("");
      });

      it("keeps the seller and provisions another PDV on a second activation", async () => {
        const reference = unique("seller");
        const first = await activate(reference);
        const second = await activate(reference);
        expect(second.sellerId).toBe(first.sellerId);
        expect(second.subEstablishmentRef).toBe(first.subEstablishmentRef);
        expect(second.posId).not.toBe(first.posId);
      });

      it("refuses a replayed token with 422", async () => {
        const token = await fixture.issueSellerToken(unique("seller"));
        await fixture.backend.activateSeller(token);
        const error = await rejection(fixture.backend.activateSeller(token));
        expect(error.status).toBe(422);
      });

      for (const [label, overrides] of [
        ["signed with another secret", { secret: "another-secret-of-at-least-32-bytes-long!" }],
        ["for another audience", { audience: "someone-else" }],
        ["expired", { expiresInSeconds: -120 }],
        // Beyond the 30 s clock skew: a token minted with a clock set ahead would otherwise live longer than it says.
        ["issued in the future (iat)", { now: new Date(Date.now() + 10 * 60_000) }],
      ] as const) {
        it(`refuses a token ${label} with 422 and a message`, async () => {
          const token = await fixture.issueSellerToken(unique("seller"), overrides);
          const error = await rejection(fixture.backend.activateSeller(token));
          expect(error.status).toBe(422);
          expect(error.detail).not.toBe("");
        });
      }

      it("refuses a token that is not a JWT with 422", async () => {
        expect((await rejection(fixture.backend.activateSeller("not-a-jwt"))).status).toBe(422);
      });

      it("refuses a blocked seller with 422", async () => {
        const token = await fixture.issueSellerToken(fixture.blockedSellerReference);
        expect((await rejection(fixture.backend.activateSeller(token))).status).toBe(422);
      });

      it("names the field when the seller token is missing", async () => {
        const error = await rejection(fixture.backend.activateSeller(""));
        expect(error.status).toBe(422);
        expect(error.detail).toContain("sellerToken");
      });
    });

    describe("transaction configuration (2.3)", () => {
      it("answers the configuration of an activated PDV, fresh on every call", async () => {
        const { posId } = await activate();
        const config = await fixture.backend.fetchTransactionConfig(posId);
        expect(ZTransactionConfig.parse(config)).toEqual(config);
        expect(await fixture.backend.fetchTransactionConfig(posId)).toEqual(config);
      });

      it("answers 404 for an unknown posId", async () => {
        expect((await rejection(fixture.backend.fetchTransactionConfig(unique("no-such-pos")))).status).toBe(404);
      });

      it("answers 422 naming posId when it is missing", async () => {
        const error = await rejection(fixture.backend.fetchTransactionConfig(""));
        expect(error.status).toBe(422);
        expect(error.detail).toContain("posId");
      });

      it("refuses a blocked PDV with 422, for its config and its reports", async () => {
        const { posId } = await activate();
        await fixture.blockPos(posId);
        expect((await rejection(fixture.backend.fetchTransactionConfig(posId))).status).toBe(422);
        expect((await rejection(fixture.backend.reportTransaction(reportFor(posId)))).status).toBe(422);
      });
    });

    describe("transaction report (2.4)", () => {
      it("accepts a report, and its exact repeat, idempotently", async () => {
        const { posId } = await activate();
        const report = reportFor(posId);
        await expect(fixture.backend.reportTransaction(report)).resolves.toBeUndefined();
        await expect(fixture.backend.reportTransaction({ ...report })).resolves.toBeUndefined();
      });

      it("accepts a declined sale", async () => {
        const { posId } = await activate();
        const report = reportFor(posId, { approved: false, codResp: 5, authorizationCode: "" });
        await expect(fixture.backend.reportTransaction(report)).resolves.toBeUndefined();
      });

      it("answers 409 to a conflicting repeat (kept for review, not applied), and still accepts the original", async () => {
        const { posId } = await activate();
        const report = reportFor(posId);
        await fixture.backend.reportTransaction(report);
        const conflicting = { ...report, amountInCents: report.amountInCents + 100 };
        const error = await rejection(fixture.backend.reportTransaction(conflicting));
        expect(error.status).toBe(409);
        expect(error.detail).toContain(report.nsuGateway);
        expect((await rejection(fixture.backend.reportTransaction(conflicting))).status).toBe(409);
        await expect(fixture.backend.reportTransaction(report)).resolves.toBeUndefined();
      });

      it("accepts the same nsuGateway from another PDV", async () => {
        const first = await activate();
        const second = await activate();
        const report = reportFor(first.posId);
        await fixture.backend.reportTransaction(report);
        await expect(fixture.backend.reportTransaction({ ...report, posId: second.posId })).resolves.toBeUndefined();
      });

      for (const [field, broken] of [
        ["nsuGateway", { nsuGateway: undefined }],
        ["amountInCents", { amountInCents: 19.9 }],
        ["occurredAt", { occurredAt: "2026-11-24T10:00:00Z" }],
        ["installments", { installments: -1 }],
        ["approved", { approved: "yes" }],
      ] as const) {
        it(`refuses a report with an invalid ${field}, naming the field`, async () => {
          const { posId } = await activate();
          const report = { ...reportFor(posId), ...broken } as unknown as TransactionReport;
          const error = await rejection(fixture.backend.reportTransaction(report));
          expect(error.status).toBe(422);
          expect(error.detail).toContain(field);
        });
      }

      const day = 24 * 60 * 60_000;
      for (const [label, occurredAt] of [
        ["year 0001", "0001-01-01T00:00:00.000Z"],
        ["year 9999", "9999-12-31T23:59:59.999Z"],
        ["31 days ago", () => new Date(Date.now() - 31 * day).toISOString()],
        ["10 minutes ahead", () => new Date(Date.now() + 10 * 60_000).toISOString()],
      ] as const) {
        it(`refuses a report whose occurredAt is out of bounds (${label}) with 400 naming the field`, async () => {
          const { posId } = await activate();
          const at = typeof occurredAt === "string" ? occurredAt : occurredAt();
          const error = await rejection(fixture.backend.reportTransaction(reportFor(posId, { occurredAt: at })));
          expect(error.status).toBe(400);
          expect(error.detail).toMatch(/^occurredAt is more than/);
        });
      }

      it("accepts a late report within 30 days, and one a minute ahead (clock skew)", async () => {
        const { posId } = await activate();
        for (const at of [Date.now() - 29 * day, Date.now() + 60_000])
          await expect(
            fixture.backend.reportTransaction(reportFor(posId, { occurredAt: new Date(at).toISOString() })),
          ).resolves.toBeUndefined();
      });

      it("answers 404 for a report of an unknown posId", async () => {
        expect((await rejection(fixture.backend.reportTransaction(reportFor(unique("no-such-pos"))))).status).toBe(404);
      });
    });

    describe("a whole sale through PosClient", () => {
      for (const outcome of ["approve", "decline"] as const) {
        it(`runs a sale that the payment application ${outcome}s and reports it`, async () => {
          const { posId } = await activate();
          const errors: unknown[] = [];
          const client = new PosClient({
            apiKey: "unused-with-a-custom-backend",
            backend: fixture.backend,
            logger: { error: (...args) => errors.push(args) },
          });
          const sale = await client.sale({
            posId,
            amountInCents: 12_345,
            installments: 2,
            paymentApp: new SimulatedPaymentApp({ outcome }),
          });
          expect(sale.isReported).toBe(true);
          expect(sale.payment.approved).toBe(outcome === "approve");
          expect(sale.report).toMatchObject({ posId, amountInCents: 12_345, installments: 2 });
          expect(errors).toEqual([]);
        });
      }
    });
  });
}
