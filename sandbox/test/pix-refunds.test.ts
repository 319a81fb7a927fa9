import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharge, createPaidCharge, expectPixError, expectValidationError } from "./fixtures";
import { startSandbox, type TSandbox } from "./harness";

const dayMs = 24 * 60 * 60 * 1000;

describe("Pix refunds, immediate settlement (spec 4.5, 3.5)", () => {
  let sandbox: TSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.stop());

  const refund = (body: Record<string, unknown>, client = "merchant") =>
    sandbox.request(client, "POST", "/api/v1/pix-refunds", body);

  it("answers 201 PROCESSING, then the refund reads RETURNED with a settlement date", async () => {
    const charge = await createPaidCharge(sandbox, "merchant", { amount: 100 });
    const created = await refund({
      txid: charge.txid,
      amount: 30.5,
      description: "Devolução parcial",
      userReference: "r-1",
      sendWebhook: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      amount: 30.5,
      status: { code: 2, description: "PROCESSING" },
      statusReason: null,
      pixChargeTxid: charge.txid,
      pixEndToEnd: charge.pix.endToEndId,
      sendWebhookInt: 1,
      settlementDate: null,
      description: "Devolução parcial",
      userReference: "r-1",
      partnerBankId: 1,
      refundTypeCode: 1,
      numberRetries: 0,
    });
    expect(created.body.pixChargeId).toEqual(expect.any(Number));
    expect(created.body.tenantId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(created.body.refundEndToEnd).toMatch(/^D[0-9]{20}[A-Za-z0-9]{11}$/);
    const read = await sandbox.request("merchant", "GET", `/api/v1/pix-refunds/${created.body.pixRefundId}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      pixRefundId: created.body.pixRefundId,
      status: { code: 3, description: "RETURNED" },
      userReference: "r-1",
    });
    expect(Number.isNaN(Date.parse(read.body.settlementDate))).toBe(false);
  });

  it("moves the charge to PARTIALLY REFUNDED then REFUNDED, with devolutions and devolutionAllowed", async () => {
    const charge = await createPaidCharge(sandbox, "merchant", { amount: 10 });
    expect((await refund({ txid: charge.txid, amount: 4 })).status).toBe(201);
    const partial = (await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`)).body;
    expect(partial).toMatchObject({ status: "PARTIALLY REFUNDED", devolutionAllowed: true });
    expect(partial.devolutions).toHaveLength(1);
    expect((await refund({ txid: charge.txid, amount: 6 })).status).toBe(201);
    const full = (await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`)).body;
    expect(full).toMatchObject({ status: "REFUNDED", devolutionAllowed: false });
    expect(full.devolutions.map((d: { amount: number }) => d.amount)).toEqual([4, 6]);
    expect(full.devolutions[1].status.description).toBe("RETURNED");
  });

  it("answers 422 above the remaining value and 409 once fully refunded", async () => {
    const charge = await createPaidCharge(sandbox, "merchant", { amount: 10 });
    expectPixError(await refund({ txid: charge.txid, amount: 10.01 }), 422);
    expect((await refund({ txid: charge.txid, amount: 9.99 })).status).toBe(201);
    expectPixError(await refund({ txid: charge.txid, amount: 0.02 }), 422);
    expect((await refund({ txid: charge.txid, amount: 0.01 })).status).toBe(201);
    expectPixError(await refund({ txid: charge.txid, amount: 0.01 }), 409, "ESTADO_INVALIDO");
  });

  it("answers 409 for a charge not paid (ACTIVE, cancelled, expired) and 404 for an unknown one", async () => {
    const active = await createCharge(sandbox);
    expectPixError(await refund({ txid: active.txid, amount: 1 }), 409);
    await sandbox.request("merchant", "PUT", `/api/v1/pix-charges/${active.txid}/cancel`);
    expectPixError(await refund({ txid: active.txid, amount: 1 }), 409);
    const expired = await createCharge(sandbox);
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${expired.txid}/expire`);
    expectPixError(await refund({ txid: expired.txid, amount: 1 }), 409);
    expectPixError(await refund({ txid: "unknowntxid00000000000000000", amount: 1 }), 404, "NAO_ENCONTRADO");
    expectPixError(await sandbox.request("merchant", "GET", "/api/v1/pix-refunds/unknown"), 404);
  });

  it.each([
    ["missing txid", { amount: 1 }, "txid"],
    ["missing amount", { txid: "x" }, "amount"],
    ["amount below 0.01", { txid: "x", amount: 0 }, "amount"],
    ["amount with three decimals", { txid: "x", amount: 0.015 }, "amount"],
    ["sendWebhook not boolean", { txid: "x", amount: 1, sendWebhook: "yes" }, "sendWebhook"],
  ])("answers 400 VALIDACAO_INVALIDA for %s", async (_name, body, field) => {
    expectValidationError(await refund(body), field);
  });

  it("never refunds more than paid under concurrent requests", async () => {
    const charge = await createPaidCharge(sandbox, "merchant", { amount: 10 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => refund({ txid: charge.txid, amount: i % 2 === 0 ? 1 : 0.5 })),
    );
    const accepted = results.filter((r) => r.status === 201);
    for (const rejected of results.filter((r) => r.status !== 201)) expect([409, 422]).toContain(rejected.status);
    const acceptedCents = accepted.reduce((sum, r) => sum + Math.round(r.body.amount * 100), 0);
    expect(acceptedCents).toBeLessThanOrEqual(1000);
    const after = (await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`)).body;
    const storedCents = after.devolutions.reduce(
      (sum: number, d: { amount: number }) => sum + Math.round(d.amount * 100),
      0,
    );
    expect(storedCents).toBe(acceptedCents);
    expect(after.status).toBe(acceptedCents === 1000 ? "REFUNDED" : "PARTIALLY REFUNDED");
  });

  it("lists refunds with filters and the page envelope", async () => {
    const charge = await createPaidCharge(sandbox, "merchant", { amount: 10 });
    for (const amount of [1, 2, 3]) await refund({ txid: charge.txid, amount });
    const list = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-refunds?pixChargeTxid=${charge.txid}&size=2&sort=amount,desc`,
    );
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      number: 0,
      size: 2,
      numberOfElements: 2,
      totalElements: 3,
      totalPages: 2,
      first: true,
      last: false,
      empty: false,
    });
    expect(list.body.content.map((r: { amount: number }) => r.amount)).toEqual([3, 2]);
    const returned = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-refunds?pixChargeTxid=${charge.txid}&status=3`,
    );
    expect(returned.body.totalElements).toBe(3);
    const processing = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-refunds?pixChargeTxid=${charge.txid}&status=2`,
    );
    expect(processing.body.totalElements).toBe(0);
    const none = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-refunds?pixChargeTxid=${charge.txid}&initialDate=2099-01-01T00:00:00Z`,
    );
    expect(none.body.totalElements).toBe(0);
    expectValidationError(await sandbox.request("merchant", "GET", "/api/v1/pix-refunds?status=7"), "status");
    expectValidationError(
      await sandbox.request("merchant", "GET", "/api/v1/pix-refunds?initialDate=tomorrow"),
      "initialDate",
    );
  });

  it("refuses refunds once the charge is 90 days old (409, devolutionAllowed false)", async () => {
    const old = await createPaidCharge(sandbox, "merchant", { amount: 10 });
    expect(old.devolutionAllowed).toBe(true);
    await sandbox.restart({ SANDBOX_CLOCK_OFFSET_MS: String(90 * dayMs + 1000) });
    try {
      const read = await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${old.txid}`);
      expect(read.body).toMatchObject({ status: "PAID", devolutionAllowed: false });
      expectPixError(await refund({ txid: old.txid, amount: 1 }), 409);
    } finally {
      await sandbox.restart({ SANDBOX_CLOCK_OFFSET_MS: "0" });
    }
    expect((await refund({ txid: old.txid, amount: 1 })).status).toBe(201);
  });
});

describe("Pix refunds, manual settlement (control API)", () => {
  let sandbox: TSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ env: { SANDBOX_REFUND_SETTLEMENT: "manual" } });
  });
  afterAll(() => sandbox?.stop());

  it("stays PROCESSING until settled; settle gives RETURNED; a second settle is 409", async () => {
    const charge = await createPaidCharge(sandbox, "merchant", { amount: 10 });
    const created = await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid: charge.txid, amount: 10 });
    expect(created.status).toBe(201);
    const id = created.body.pixRefundId;
    expect((await sandbox.request("merchant", "GET", `/api/v1/pix-refunds/${id}`)).body.status.code).toBe(2);
    // The amount is held while PROCESSING.
    expectPixError(
      await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid: charge.txid, amount: 0.01 }),
      409,
    );
    const settled = await sandbox.request("merchant", "POST", `/sandbox/v1/pix-refunds/${id}/settle`);
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ status: { code: 3, description: "RETURNED" } });
    expect(settled.body.settlementDate).not.toBeNull();
    expectPixError(await sandbox.request("merchant", "POST", `/sandbox/v1/pix-refunds/${id}/settle`), 409);
    expectPixError(await sandbox.request("merchant", "POST", `/sandbox/v1/pix-refunds/${id}/fail`), 409);
    expectPixError(await sandbox.request("merchant", "POST", "/sandbox/v1/pix-refunds/unknown/settle"), 404);
  });

  it("fail gives NOT FINISHED with a reason and frees the amount again", async () => {
    const charge = await createPaidCharge(sandbox, "merchant", { amount: 10 });
    const created = await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid: charge.txid, amount: 10 });
    expect((await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`)).body.status).toBe(
      "REFUNDED",
    );
    const failed = await sandbox.request(
      "merchant",
      "POST",
      `/sandbox/v1/pix-refunds/${created.body.pixRefundId}/fail`,
      { statusReason: "Conta do pagador encerrada" },
    );
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      status: { code: 4, description: "NOT FINISHED" },
      statusReason: "Conta do pagador encerrada",
      settlementDate: null,
    });
    expect((await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`)).body).toMatchObject({
      status: "PAID",
      devolutionAllowed: true,
    });
    expect(
      (await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid: charge.txid, amount: 10 })).status,
    ).toBe(201);
  });
});
