import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import { defaultPeriod } from "@/lib/list/period";
import { startGatewaySandbox, useGateway } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { cancelPixCharge, createPixCharge, findPixCharges, getPixChargeView, refreshPixChargesPage } from "./charges";
import { upsertPixChargeFromGateway } from "./mirror";
import { ZCreatePixChargeInput, ZPixChargeFilters } from "./schemas";

const wholePeriod = "initialDate=2000-01-01T00:00:00Z&endDate=2100-01-01T00:00:00Z";

describe("Pix charges against the sandbox", () => {
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };

  const newCharge = (overrides: Record<string, unknown> = {}) =>
    ZCreatePixChargeInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 2590,
      expirationSeconds: 600,
      ...overrides,
    });

  const upstreamCharges = async () =>
    (await sandbox.request("merchant", "GET", `/api/v1/pix-charges?${wholePeriod}&size=100`)).body.content as {
      txid: string;
    }[];

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.idempotencyKey.deleteMany();
    await db.pixCharge.deleteMany();
    await db.auditLog.deleteMany();
    await db.user.deleteMany();
    const user = await db.user.create({ data: { email: "staff@example.com", name: "Staff", passwordHash: "x" } });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9", userAgent: "vitest" };
  });

  it("creates a charge upstream, mirrors it and records who did it", async () => {
    const input = newCharge({
      debtor: { name: "Fulano de Tal", document: "529.982.247-25" },
      description: "Pedido 42",
      userReference: "order-42",
    });
    const { txid } = await createPixCharge(input, context);

    const view = await getPixChargeView(txid);
    expect(view).toMatchObject({
      txid,
      status: "ACTIVE",
      amountCents: 2590,
      debtor: { name: "Fulano de Tal", document: "52998224725" },
      description: "Pedido 42",
      userReference: "order-42",
      isPayable: true,
      canCancel: true,
      canRefund: false,
      payment: null,
    });
    expect(view!.pixCopyAndPaste).toMatch(/^000201/);
    const row = await db.pixCharge.findUniqueOrThrow({ where: { txid } });
    expect(row).toMatchObject({ createdById: context.actor.id, debtorCpf: "52998224725", expirationSeconds: 600 });
    expect(row.raw).not.toHaveProperty("qrCodeBase64");
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "pix_charge.created" } });
    expect(entry).toMatchObject({
      actorId: context.actor.id,
      resourceType: "pix_charge",
      resourceId: txid,
      ip: "203.0.113.9",
    });
  });

  it("creates one upstream charge for two concurrent submits of the same form", async () => {
    const input = newCharge();
    const before = (await upstreamCharges()).length;
    const [first, second] = await Promise.all([createPixCharge(input, context), createPixCharge(input, context)]);
    expect(second.txid).toBe(first.txid);
    expect(await createPixCharge(input, context)).toEqual(first);
    expect(await upstreamCharges()).toHaveLength(before + 1);
    expect(
      await db.idempotencyKey.findUniqueOrThrow({
        where: { scope_key: { scope: "pix_charge", key: input.idempotencyKey } },
      }),
    ).toMatchObject({ status: "SUCCEEDED", resultId: first.txid });
  });

  it("recovers a key left pending by a process that died after creating the charge upstream", async () => {
    const input = newCharge({ amountCents: 4321, description: "Recovered", userReference: "crash-1" });
    const first = await createPixCharge(input, context);
    // Another charge like it, made by another key, must not be taken for it.
    await createPixCharge({ ...input, idempotencyKey: randomUUID() }, context);
    const before = (await upstreamCharges()).length;
    await db.pixCharge.delete({ where: { txid: first.txid } });
    await db.idempotencyKey.update({
      where: { scope_key: { scope: "pix_charge", key: input.idempotencyKey } },
      data: { status: "PENDING", resultId: null, lockedUntil: new Date(Date.now() - 1000) },
    });
    expect(await createPixCharge(input, context)).toEqual(first);
    expect(await upstreamCharges()).toHaveLength(before);
    expect(await db.pixCharge.findUnique({ where: { txid: first.txid } })).toMatchObject({ amountCents: 4321 });
  });

  it("frees the key when the charge was certainly not created, so the corrected form can be sent again", async () => {
    const input = newCharge({ amountCents: 1000 });
    const before = (await upstreamCharges()).length;
    // A blank debtor name never leaves the app (the gateway client validates the body first).
    await expect(
      createPixCharge({ ...input, debtor: { name: " ", document: "52998224725" } }, context),
    ).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(await db.idempotencyKey.findFirst()).toMatchObject({ status: "FAILED" });
    expect(await upstreamCharges()).toHaveLength(before);
    await createPixCharge(input, context);
    expect(await upstreamCharges()).toHaveLength(before + 1);
  });

  it("shows the payment without a reload once the payer pays", async () => {
    const { txid } = await createPixCharge(newCharge({ amountCents: 10_000 }), context);
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`, {
      payerName: "Beltrana",
      payerDocumentNumber: "11222333000181",
    });

    const view = await getPixChargeView(txid, { refresh: true });
    expect(view).toMatchObject({
      status: "PAID",
      isPayable: false,
      pixCopyAndPaste: null,
      canCancel: false,
      canRefund: true,
      remainingRefundableCents: 10_000,
      refundWindowDaysLeft: 90,
      payment: { payerName: "Beltrana", payerDocument: "11222333000181", amountCents: 10_000 },
    });
    expect(view!.payment!.endToEndId).toBeTruthy();
  });

  it("cancels an active charge and records it", async () => {
    const { txid } = await createPixCharge(newCharge(), context);
    const view = await cancelPixCharge(txid, context);
    expect(view).toMatchObject({ status: "Cancelada", canCancel: false, isPayable: false });
    expect((await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status).toBe("Cancelada");
    expect(
      await db.auditLog.count({
        where: { action: "pix_charge.cancelled", resourceId: txid, actorId: context.actor.id },
      }),
    ).toBe(1);
  });

  it("refuses to cancel a paid charge with a clear message and refreshes the mirror", async () => {
    const { txid } = await createPixCharge(newCharge(), context);
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    await expect(cancelPixCharge(txid, context)).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "pix.errors.notCancellableStatus",
      params: { status: "PAID" },
    });
    expect((await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status).toBe("PAID");
    expect(await db.auditLog.count({ where: { action: "pix_charge.cancelled" } })).toBe(0);
  });

  it("answers null for a charge nobody knows", async () => {
    expect(await getPixChargeView("NoSuchTxid0000000000000000000000")).toBeNull();
  });

  it("pulls the upstream list page by page into the mirror, without erasing what only a read has", async () => {
    const txids: string[] = [];
    for (let index = 0; index < 3; index += 1)
      txids.push((await createPixCharge(newCharge({ amountCents: 100 + index }), context)).txid);
    const qrBefore = (await db.pixCharge.findUniqueOrThrow({ where: { txid: txids[0]! } })).pixCopyAndPaste;
    await db.pixCharge.deleteMany({ where: { txid: { not: txids[0] } } });
    const upstreamCount = (await upstreamCharges()).length;

    const period = defaultPeriod();
    const result = await refreshPixChargesPage({ ...period, page: 0 });
    expect(result).toMatchObject({ page: 0, totalPages: 1, upserted: upstreamCount - 1 });
    expect(await db.pixCharge.count()).toBe(upstreamCount);
    expect((await db.pixCharge.findUniqueOrThrow({ where: { txid: txids[0]! } })).pixCopyAndPaste).toBe(qrBefore);
    expect(await refreshPixChargesPage({ ...period, page: 0 })).toMatchObject({ upserted: 0 });
  });

  it("filters, sorts and pages the list from the mirror", async () => {
    const a = await createPixCharge(
      newCharge({ amountCents: 500, userReference: "ref-a", debtor: { name: "Ana", document: "52998224725" } }),
      context,
    );
    const b = await createPixCharge(
      newCharge({ amountCents: 300, userReference: "ref-b", debtor: { name: "Loja", document: "11.222.333/0001-81" } }),
      context,
    );
    const c = await createPixCharge(newCharge({ amountCents: 900 }), context);
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${c.txid}/pay`);
    await getPixChargeView(c.txid, { refresh: true });

    const find = (params: Record<string, string>) => findPixCharges(ZPixChargeFilters.parse(params));
    expect((await find({})).rows.map((row) => row.txid)).toEqual([c.txid, b.txid, a.txid]);
    expect((await find({ sort: "amount", order: "asc" })).rows.map((row) => row.amountCents)).toEqual([300, 500, 900]);
    expect((await find({ status: "PAID" })).rows.map((row) => row.txid)).toEqual([c.txid]);
    expect((await find({ document: "529.982.247-25" })).rows.map((row) => row.txid)).toEqual([a.txid]);
    expect((await find({ document: "11222333000181" })).rows.map((row) => row.txid)).toEqual([b.txid]);
    expect((await find({ userReference: "ref-b" })).rows.map((row) => row.txid)).toEqual([b.txid]);
    expect((await find({ txid: a.txid.slice(3, 12).toLowerCase() })).rows.map((row) => row.txid)).toEqual([a.txid]);
    expect((await find({ from: "2000-01-01", to: "2000-01-31" })).total).toBe(0);
    // The overview's link: paid charges by payment date.
    expect((await find({ date: "paid" })).rows.map((row) => row.txid)).toEqual([c.txid]);
    expect((await find({ date: "paid", from: "2000-01-01", to: "2000-01-31" })).total).toBe(0);
    const paged = await findPixCharges(ZPixChargeFilters.parse({ page: "2" }), 2);
    expect(paged).toMatchObject({ total: 3, page: 2, pageSize: 2, pageCount: 2 });
    expect(paged.rows.map((row) => row.txid)).toEqual([a.txid]);
    // A stale or hand-edited URL falls back per filter instead of failing.
    expect(ZPixChargeFilters.parse({ status: "nope", page: "-1", sort: "x" })).toMatchObject({
      status: undefined,
      page: 1,
      sort: "creationDate",
    });
  });

  describe("mirror", () => {
    it("writes the same upstream state twice as one unchanged row", async () => {
      const { txid } = await createPixCharge(newCharge(), context);
      const charge = await getPixCharge(txid);
      const before = await db.pixCharge.findUniqueOrThrow({ where: { txid } });
      expect((await upsertPixChargeFromGateway(charge)).outcome).toBe("unchanged");
      expect((await upsertPixChargeFromGateway(charge)).outcome).toBe("unchanged");
      const after = await db.pixCharge.findUniqueOrThrow({ where: { txid } });
      const { syncedAt: _before, ...stable } = before;
      const { syncedAt: _after, ...stableAfter } = after;
      expect(stableAfter).toEqual(stable);
      expect(after.syncedAt.getTime()).toBeGreaterThanOrEqual(before.syncedAt.getTime());
      expect(await db.pixCharge.count({ where: { txid } })).toBe(1);
    });

    it("never moves a charge back to an earlier state", async () => {
      const { txid } = await createPixCharge(newCharge({ amountCents: 1000 }), context);
      const active = await getPixCharge(txid);
      await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
      const paid = await getPixCharge(txid);
      expect((await upsertPixChargeFromGateway(paid)).outcome).toBe("updated");

      expect((await upsertPixChargeFromGateway(active)).outcome).toBe("stale");
      const { calendar, debtor, amount, description, userReference } = active;
      expect(
        (
          await upsertPixChargeFromGateway({
            txid,
            calendar,
            debtor,
            amount,
            status: "ACTIVE",
            description,
            userReference,
          })
        ).outcome,
      ).toBe("stale");
      expect((await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status).toBe("PAID");

      // A refund, then the paid snapshot again (a webhook retry carries the body of its first try).
      await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid, amount: 4 });
      expect((await upsertPixChargeFromGateway(await getPixCharge(txid))).charge).toMatchObject({
        status: "PARTIALLY REFUNDED",
        refundedCents: 400,
      });
      expect((await upsertPixChargeFromGateway(paid)).outcome).toBe("stale");
      expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
        status: "PARTIALLY REFUNDED",
        refundedCents: 400,
      });
      expect(await db.pixRefund.count({ where: { txid } })).toBe(1);
    });

    it("takes a move back inside the paid states from a read that knows every refund (a failed refund)", async () => {
      const manual = await startGatewaySandbox({ env: { SANDBOX_REFUND_SETTLEMENT: "manual" } });
      try {
        const { txid } = await createPixCharge(newCharge({ amountCents: 1000 }), context);
        await manual.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
        const refund = await manual.request("merchant", "POST", "/api/v1/pix-refunds", { txid, amount: 10 });
        expect((await upsertPixChargeFromGateway(await getPixCharge(txid))).charge).toMatchObject({
          status: "REFUNDED",
          refundedCents: 1000,
        });
        await manual.request("merchant", "POST", `/sandbox/v1/pix-refunds/${refund.body.pixRefundId}/fail`, {
          statusReason: "conta encerrada",
        });
        expect((await upsertPixChargeFromGateway(await getPixCharge(txid))).charge).toMatchObject({
          status: "PAID",
          refundedCents: 0,
        });
        const view = await getPixChargeView(txid);
        expect(view).toMatchObject({ remainingRefundableCents: 1000, canRefund: true });
        expect(view!.refunds).toMatchObject([{ statusCode: 4, statusReason: "conta encerrada" }]);
      } finally {
        await manual.stop();
        await useGateway(sandbox.baseUrl, sandbox.certsDir);
      }
    });
  });
});
