import { describe, expect, it } from "vitest";
import { describeBackendContract } from "./contract";
import { BackendError } from "./errors";
import { IN_MEMORY_DEFAULT_API_KEY, InMemoryBackend } from "./in-memory-backend";
import { signSellerToken } from "./testing/seller-token";

const signing = { secret: "unit-test-seller-token-secret-0123456789", audience: "pos-unit-test" };

describeBackendContract("InMemoryBackend", async () => {
  const backend = new InMemoryBackend({ sellerTokens: signing, blockedSellers: ["blocked-seller"] });
  return {
    backend,
    withApiKey: (apiKey) => backend.withApiKey(apiKey),
    issueSellerToken: (reference, overrides = {}) =>
      signSellerToken({ ...signing, secret: overrides.secret ?? signing.secret }, reference, overrides),
    blockedSellerReference: "blocked-seller",
    blockPos: async (posId) => backend.blockPos(posId),
  };
});

describe("InMemoryBackend defaults and inspection", () => {
  it("works out of the box with the default key and test-seller tokens", async () => {
    const backend = new InMemoryBackend();
    const { posId } = await backend.activateSeller("test-seller:acme");
    expect(await backend.fetchTransactionConfig(posId)).toMatchObject({ empresaGateway: expect.any(String) });
    expect(backend.withApiKey(IN_MEMORY_DEFAULT_API_KEY)).toBeInstanceOf(InMemoryBackend);
    await expect(backend.activateSeller("acme")).rejects.toMatchObject({ status: 422 });
  });

  it("keeps one report per (posId, nsuGateway) and flags a conflicting repeat without applying it", async () => {
    const backend = new InMemoryBackend();
    const { posId } = await backend.activateSeller("test-seller:acme");
    const report = {
      posId,
      approved: true,
      codResp: 0,
      nsuGateway: "1",
      nsuHost: "2",
      cardBrand: "VISA",
      acquirerNetwork: "REDE",
      authorizationCode: "123456",
      installments: 1,
      amountInCents: 1000,
      occurredAt: new Date(Date.now() - 60_000).toISOString(),
    };
    await backend.reportTransaction(report);
    await backend.reportTransaction(report);
    await expect(backend.reportTransaction({ ...report, amountInCents: 2000 })).rejects.toMatchObject({ status: 409 });
    await expect(backend.reportTransaction({ ...report, amountInCents: 2000 })).rejects.toMatchObject({ status: 409 });
    expect(backend.reports).toEqual([report]);
    expect(backend.conflicts).toEqual([{ stored: report, received: { ...report, amountInCents: 2000 } }]);
  });

  it("shares state between key views and blocks a PDV's config", async () => {
    const backend = new InMemoryBackend({ acceptedApiKeys: ["a", "b"], apiKey: "a" });
    const { posId } = await backend.activateSeller("test-seller:acme");
    const other = backend.withApiKey("b");
    await expect(other.fetchTransactionConfig(posId)).resolves.toBeDefined();
    backend.blockPos(posId);
    const error = await other.fetchTransactionConfig(posId).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ status: 422 });
  });
});
