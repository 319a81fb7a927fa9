import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharge, expectValidationError } from "./fixtures";
import { startSandbox, type TSandbox } from "./harness";

let sandbox: TSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox?.stop());

const dayMs = 24 * 60 * 60 * 1000;

describe("/sandbox/v1/clock", () => {
  it("moves resource dates and expiry to the set instant, and back", async () => {
    const at = "2026-03-02T10:15:00-03:00";
    const set = await sandbox.request("merchant", "POST", "/sandbox/v1/clock", { at });
    expect(set.status).toBe(200);
    expect(Date.parse(set.body.now) - Date.parse(at)).toBeLessThan(5_000);

    const charge = await createCharge(sandbox, "merchant", { expiration: 600 });
    expect(Date.parse(charge.calendar.creationDate) - Date.parse(at)).toBeLessThan(5_000);
    expect(charge.status).toBe("ACTIVE");

    await sandbox.request("merchant", "POST", "/sandbox/v1/clock", { at: "2026-03-02T10:30:00-03:00" });
    const later = await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`);
    expect(later.body.status).toBe("EXPIRED");

    const reset = await sandbox.request("merchant", "DELETE", "/sandbox/v1/clock");
    expect(reset.body.offsetMs).toBe(0);
    expect(Math.abs(Date.parse(reset.body.now) - Date.now())).toBeLessThan(5_000);
  });

  it("takes an offset, and refuses a malformed instant", async () => {
    const moved = await sandbox.request("merchant", "POST", "/sandbox/v1/clock", { offsetMs: -7 * dayMs });
    expect(moved.body.offsetMs).toBe(-7 * dayMs);
    expectValidationError(await sandbox.request("merchant", "POST", "/sandbox/v1/clock", { at: "ontem" }), "at");
    await sandbox.request("merchant", "DELETE", "/sandbox/v1/clock");
  });
});
