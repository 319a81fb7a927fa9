import { describe, expect, it, vi } from "vitest";
import type { Backend } from "./backend";
import { PosClient } from "./client";
import { BackendError } from "./errors";
import { HttpBackend } from "./http-backend";
import { InMemoryBackend } from "./in-memory-backend";
import { SimulatedPaymentApp } from "./payment-app";

async function activated() {
  const backend = new InMemoryBackend({
    config: { tokenRegistroTls: "tls-secret", enderecoGateway: "10.0.0.1:443" },
    // The sale's capture clock below: the backend bounds occurredAt against its own.
    now: () => new Date("2026-11-24T12:00:00.123Z"),
  });
  const { posId } = await backend.activateSeller("test-seller:acme");
  return { backend, posId };
}

describe("PosClient", () => {
  it("builds an HttpBackend from apiKey and environment when no backend is given", () => {
    const client = new PosClient({ apiKey: "k", environment: "SANDBOX" });
    expect(client.backend).toBeInstanceOf(HttpBackend);
    expect((client.backend as HttpBackend).baseUrl).toBe("http://127.0.0.1:3000");
  });

  it("resolves the config for every sale (no cache), pays, and reports with amount and capture time", async () => {
    const { backend, posId } = await activated();
    const fetchConfig = vi.spyOn(backend, "fetchTransactionConfig");
    const paymentApp = new SimulatedPaymentApp({ nsuStart: 100 });
    const client = new PosClient({
      apiKey: "k",
      backend,
      now: () => new Date("2026-11-24T12:00:00.123Z"),
      logger: { error: vi.fn() },
    });
    const first = await client.sale({ posId, amountInCents: 5000, installments: 3, paymentApp });
    await client.sale({ posId, amountInCents: 700, installments: 1, paymentApp });
    expect(fetchConfig).toHaveBeenCalledTimes(2);
    expect(paymentApp.intents[0]).toMatchObject({ posId, amountInCents: 5000, installments: 3 });
    expect(first).toMatchObject({ isReported: true, payment: { approved: true, codResp: 0, nsuGateway: "100" } });
    expect(backend.reports[0]).toEqual({
      ...first.payment,
      posId,
      amountInCents: 5000,
      occurredAt: "2026-11-24T12:00:00.123Z",
    });
    expect(backend.reports.map((report) => report.nsuGateway)).toEqual(["100", "101"]);
  });

  it("returns the sale result and logs when the report fails (rule 1)", async () => {
    const { backend, posId } = await activated();
    const failing: Backend = {
      activateSeller: (token) => backend.activateSeller(token),
      fetchTransactionConfig: (id) => backend.fetchTransactionConfig(id),
      reportTransaction: () => Promise.reject(new BackendError(503, "down for maintenance")),
    };
    const error = vi.fn();
    const client = new PosClient({ apiKey: "k", backend: failing, logger: { error } });
    const sale = await client.sale({
      posId,
      amountInCents: 990,
      installments: 1,
      paymentApp: new SimulatedPaymentApp({ outcome: "decline" }),
    });
    expect(sale.payment).toMatchObject({ approved: false, codResp: 5, authorizationCode: "" });
    expect(sale.isReported).toBe(false);
    expect(sale.reportError).toMatchObject({ status: 503, detail: "down for maintenance" });
    expect(error).toHaveBeenCalledOnce();
    expect(JSON.stringify(error.mock.calls)).not.toContain("tls-secret");
  });

  it("wraps a non-BackendError report failure as status 0", async () => {
    const { backend, posId } = await activated();
    vi.spyOn(backend, "reportTransaction").mockRejectedValue(new TypeError("socket hang up"));
    const client = new PosClient({ apiKey: "k", backend, logger: { error: vi.fn() } });
    const sale = await client.sale({ posId, amountInCents: 1, installments: 1, paymentApp: new SimulatedPaymentApp() });
    expect(sale.reportError).toBeInstanceOf(BackendError);
    expect(sale.reportError?.status).toBe(0);
  });

  it("does not pay when the config cannot be resolved", async () => {
    const backend = new InMemoryBackend();
    const paymentApp = new SimulatedPaymentApp();
    const pay = vi.spyOn(paymentApp, "pay");
    const client = new PosClient({ apiKey: "k", backend });
    await expect(
      client.sale({ posId: "unknown", amountInCents: 100, installments: 1, paymentApp }),
    ).rejects.toMatchObject({ name: "BackendError", status: 404 });
    expect(pay).not.toHaveBeenCalled();
  });

  it("refuses amounts that are not integer cents before calling anything", async () => {
    const { backend, posId } = await activated();
    const client = new PosClient({ apiKey: "k", backend });
    const paymentApp = new SimulatedPaymentApp();
    await expect(client.sale({ posId, amountInCents: 10.5, installments: 1, paymentApp })).rejects.toThrow(RangeError);
    await expect(client.sale({ posId, amountInCents: 100, installments: 0, paymentApp })).rejects.toThrow(RangeError);
  });
});
