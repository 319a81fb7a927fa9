import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharge } from "./fixtures";
import { startSandbox, type TSandbox } from "./harness";

let sandbox: TSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ clients: ["merchant-2"] });
});
afterAll(() => sandbox?.stop());

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

describe("/sandbox/v1/faults", () => {
  it("makes the client's /api/v1 answers slow and 5xx, leaves the control API and other clients alone, and resets", async () => {
    const charge = await createCharge(sandbox, "merchant", { amount: 1 });
    const read = () => sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`);

    const set = await sandbox.request("merchant", "PUT", "/sandbox/v1/faults", { latencyMs: 300, failureStatus: 503 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ latencyMs: 300, failureStatus: 503, failureRate: 1, until: null });

    const failed = await timed(read);
    expect(failed.result.status).toBe(503);
    expect(failed.result.body).toMatchObject({ httpStatus: 503 });
    expect(failed.ms).toBeGreaterThanOrEqual(290);
    const paymentFlavor = await sandbox.request("merchant", "GET", "/api/v1/payments/does-not-exist");
    expect(paymentFlavor.status).toBe(503);
    expect(paymentFlavor.body).toHaveProperty("traceId");

    const other = await sandbox.request("merchant-2", "GET", "/api/v1/webhooks");
    expect(other.status).toBe(200);
    const control = await timed(() => sandbox.request("merchant", "GET", "/sandbox/v1/faults"));
    expect(control.result.status).toBe(200);
    expect(control.ms).toBeLessThan(290);

    await sandbox.request("merchant", "PUT", "/sandbox/v1/faults", { latencyMs: 300 });
    const slow = await timed(read);
    expect(slow.result.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(290);

    expect((await sandbox.request("merchant", "DELETE", "/sandbox/v1/faults")).status).toBe(204);
    const healthy = await timed(read);
    expect(healthy.result.status).toBe(200);
    expect(healthy.ms).toBeLessThan(290);
    expect((await sandbox.request("merchant", "GET", "/sandbox/v1/faults")).body).toMatchObject({
      latencyMs: 0,
      failureStatus: null,
    });
  });

  it("fails about failureRate of the answers and ends by itself at until", async () => {
    const until = new Date(Date.now() + 1_500).toISOString();
    await sandbox.request("merchant", "PUT", "/sandbox/v1/faults", { failureStatus: 500, failureRate: 0.5, until });
    const statuses = await Promise.all(
      Array.from({ length: 60 }, () => sandbox.request("merchant", "GET", "/api/v1/webhooks").then((r) => r.status)),
    );
    const failures = statuses.filter((status) => status === 500).length;
    expect(failures).toBeGreaterThan(10);
    expect(failures).toBeLessThan(50);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await sandbox.request("merchant", "GET", "/api/v1/webhooks")).status).toBe(200);
  });

  it("hits only the paths under pathPrefix when given", async () => {
    const charge = await createCharge(sandbox, "merchant", { amount: 1 });
    const path = `/api/v1/pix-charges/${charge.txid}`;
    await sandbox.request("merchant", "PUT", "/sandbox/v1/faults", { failureStatus: 502, pathPrefix: path });
    expect((await sandbox.request("merchant", "GET", path)).status).toBe(502);
    expect((await sandbox.request("merchant", "GET", "/api/v1/webhooks")).status).toBe(200);
    await sandbox.request("merchant", "DELETE", "/sandbox/v1/faults");
    expect((await sandbox.request("merchant", "GET", path)).status).toBe(200);
  });

  it("refuses a status that is not 5xx", async () => {
    const refused = await sandbox.request("merchant", "PUT", "/sandbox/v1/faults", { failureStatus: 404 });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].campo).toBe("failureStatus");
  });
});
