import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TPermission } from "@/lib/auth/permissions";
import { permissionsOfRole } from "@/lib/auth/roles";
import { upsertCardPaymentFromGateway } from "@/lib/card-payments/mirror";
import { db } from "@/lib/db/client";
import { GatewayRefusedError } from "@/lib/gateway/errors";
import * as linkGateway from "@/lib/gateway/payment-links";
import * as cardGateway from "@/lib/gateway/payments";
import type { TPaymentTransaction } from "@/lib/gateway/schemas/payment";
import { upsertPaymentLinkFromGateway } from "@/lib/links/mirror";
import { createPaymentLink } from "@/lib/links/payment-links";
import { getOrCreateLinkPixCharge, refundCancelledLinkPixPayment, syncLinkPixPayment } from "@/lib/links/pix";
import { ZCreatePaymentLinkInput } from "@/lib/links/schemas";
import { createPixCharge, getPixChargeView } from "@/lib/pix/charges";
import { submitPixRefund } from "@/lib/pix/refund-approvals";
import { ZCreatePixChargeInput, ZSubmitPixRefundInput } from "@/lib/pix/schemas";
import { setAppSetting } from "@/lib/settings/app-settings";
import { approvedCardRequest } from "@/lib/testing/card-requests";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { freshApproverCode, makeIndependentApprover } from "@/lib/testing/independent-approver";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";
import { approveMoneyApproval, rejectMoneyApproval } from "./approvals";
import { submitCardPaymentCancel } from "./card-cancel-approvals";
import { admitMoneyReturn, MoneyApprovalRequiredError, refundLimitOf } from "./money-policy";

type TActor = { id: string; email: string; roleId: "administrator" | "operations"; permissions: TPermission[] };

// The money policy across requests and people (docs/security.md, "Money back to a payer"), on the app's own
// database: PostgreSQL, then the embedded PGlite (one connection: nothing may reach the global client mid-transaction).
describe.each<TTestBackend>(testBackends)("money back to a payer, per charge and per person (%s)", (backend) => {
  let sandbox: TSandbox;
  let embedded: { close: () => Promise<void> } | undefined;
  const postgresUrl = process.env.DATABASE_URL;
  let staff: TActor;
  let otherStaff: TActor;
  let admin: TActor;
  let secondAdmin: TActor;
  const contextOf = (actor: TActor) => ({ actor: { id: actor.id, email: actor.email }, ip: "203.0.113.9" });

  beforeAll(async () => {
    if (backend === "pglite") embedded = await useEmbeddedDefaultDatabase();
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await db.refundApproval.deleteMany();
    await sandbox?.stop();
    await embedded?.close();
    if (backend === "pglite") {
      delete process.env.PGLITE_DATA_DIR;
      process.env.DATABASE_URL = postgresUrl;
    }
  });

  async function createActor(email: string, roleId: TActor["roleId"]): Promise<TActor> {
    const user = await db.user.create({ data: { email, name: email.split("@")[0]!, passwordHash: "x", roleId } });
    return { id: user.id, email, roleId, permissions: permissionsOfRole(roleId, null) };
  }

  const setRefundLimit = (roleId: TActor["roleId"], refundLimitCents: number) =>
    db.role.update({ where: { id: roleId }, data: { refundLimitCents } });

  beforeEach(async () => {
    await db.refundApproval.deleteMany();
    await db.moneyReturn.deleteMany();
    await db.idempotencyKey.deleteMany();
    await db.pixCharge.deleteMany();
    await db.cardPayment.deleteMany();
    await db.paymentLink.deleteMany();
    await db.auditLog.deleteMany();
    await db.appSetting.deleteMany();
    await db.user.deleteMany();
    await db.role.updateMany({ data: { refundLimitCents: 100_000 } });
    staff = await createActor("caio@example.com", "operations");
    otherStaff = await createActor("duda@example.com", "operations");
    admin = await createActor("ana@example.com", "administrator");
    secondAdmin = await createActor("bia@example.com", "administrator");
    await makeIndependentApprover(admin);
    await makeIndependentApprover(secondAdmin);
  });

  const approve = async (approvalId: string, approver: TActor) =>
    approveMoneyApproval(approvalId, approver, contextOf(approver), await freshApproverCode(approver.id));

  async function paidCharge(amountCents: number): Promise<string> {
    const input = ZCreatePixChargeInput.parse({ idempotencyKey: randomUUID(), amountCents, expirationSeconds: 600 });
    const { txid } = await createPixCharge(input, contextOf(admin));
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    await getPixChargeView(txid, { refresh: true });
    return txid;
  }

  const refund = (actor: TActor, txid: string, amountCents: number) =>
    submitPixRefund(ZSubmitPixRefundInput.parse({ idempotencyKey: randomUUID(), txid, amountCents }), contextOf(actor));

  const upstreamRefundCount = async (txid: string) =>
    (
      (await sandbox.request("merchant", "GET", `/api/v1/pix-refunds?pixChargeTxid=${txid}&size=100`)).body
        .content as []
    ).length;

  it("five refunds of R$ 1.000 on one charge: only the first goes through at the default R$ 1.000 role limit", async () => {
    const txid = await paidCharge(500_000);
    const results = [];
    for (let index = 0; index < 5; index += 1) results.push(await refund(staff, txid, 100_000));
    expect(results.map((result) => result.status)).toEqual(["refunded", "pending", "pending", "pending", "pending"]);
    expect(await upstreamRefundCount(txid)).toBe(1);
    expect(
      await db.refundApproval.findMany({ where: { txid }, select: { reason: true, kind: true, status: true } }),
    ).toEqual(Array(4).fill({ reason: "chargeTotal", kind: "PIX_REFUND", status: "PENDING" }));
  });

  it("with a R$ 5.000 role limit, the R$ 1.000 refund that takes the charge past it waits for approval", async () => {
    await setRefundLimit("operations", 500_000);
    const txid = await paidCharge(600_000);
    const statuses = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await refund(staff, txid, 100_000)).status);
    // Five reach R$ 5.000, which one refund of R$ 5.000 could also do; the sixth would pass it.
    expect(statuses).toEqual(["refunded", "refunded", "refunded", "refunded", "refunded", "pending"]);
    expect(await upstreamRefundCount(txid)).toBe(5);

    // A second admin releases it: the charge is then refunded in full, once.
    const [held] = await db.refundApproval.findMany({ where: { txid, status: "PENDING" } });
    await approve(held!.id, secondAdmin);
    expect(await upstreamRefundCount(txid)).toBe(6);
  });

  it("parallel refunds of one charge cannot together pass the role limit", async () => {
    const txid = await paidCharge(500_000);
    const results = await Promise.all(
      [staff, otherStaff, admin, secondAdmin, staff].map((actor) => refund(actor, txid, 60_000)),
    );
    expect(results.filter((result) => result.status === "refunded")).toHaveLength(1);
    expect(results.filter((result) => result.status === "pending")).toHaveLength(4);
    expect(await upstreamRefundCount(txid)).toBe(1);
  });

  it("holds what passes a person's daily limit across charges, and only for that person", async () => {
    await setAppSetting("dailyMoneyReturnLimitCents", 150_000, contextOf(admin));
    const [first, second] = [await paidCharge(100_000), await paidCharge(100_000)];
    expect(await refund(staff, first, 90_000)).toMatchObject({ status: "refunded" });
    expect(await refund(staff, second, 70_000)).toMatchObject({ status: "pending" });
    expect(await db.refundApproval.findFirstOrThrow({ where: { txid: second } })).toMatchObject({
      reason: "dailyLimit",
      requestedById: staff.id,
    });
    // Someone else's day is their own: the same R$ 700,00 goes through for them.
    await db.refundApproval.deleteMany();
    expect(await refund(otherStaff, second, 70_000)).toMatchObject({ status: "refunded" });
    expect(await db.moneyReturn.aggregate({ where: { initiatedById: staff.id }, _sum: { amountCents: true } })).toEqual(
      { _sum: { amountCents: 90_000 } },
    );
  });

  it("holds the refund of a Pix paid on a cancelled link like any other refund", async () => {
    const input = ZCreatePaymentLinkInput.parse({
      idempotencyKey: randomUUID(),
      payerName: "Fulano de Tal",
      payerDocument: "529.982.247-25",
      amountCents: 150_000,
      installments: 1,
      acceptedMethodCodes: [1, 2],
      expirationDays: 7,
    });
    const { linkPaymentUuid } = await createPaymentLink(input, contextOf(staff));
    await getOrCreateLinkPixCharge(linkPaymentUuid, { actor: null, ip: "198.51.100.7" });
    const { pixChargeTxid } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    // Cancelled upstream while its charge is open, then paid: R$ 1.500 is owed back, above the R$ 1.000 role limit.
    await upsertPaymentLinkFromGateway(await linkGateway.cancelPaymentLink(linkPaymentUuid));
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${pixChargeTxid}/pay`, {});
    await db.pixCharge.update({ where: { txid: pixChargeTxid! }, data: { syncedAt: new Date(0) } });
    await syncLinkPixPayment({ pixChargeTxid });

    await expect(
      refundCancelledLinkPixPayment(
        { linkPaymentUuid, idempotencyKey: randomUUID(), amountCents: 150_000 },
        contextOf(staff),
      ),
    ).rejects.toMatchObject({ code: "CONFLICT", messageKey: "links.errors.refundHeldForApproval" });
    expect(await upstreamRefundCount(pixChargeTxid!)).toBe(0);
    expect(await db.refundApproval.findFirstOrThrow({ where: { txid: pixChargeTxid } })).toMatchObject({
      kind: "PIX_REFUND",
      reason: "chargeTotal",
      amountCents: 150_000,
    });
  });

  it("holds a refund above the requester's role limit and lets the same amount through for a role with a higher one", async () => {
    await setRefundLimit("administrator", 300_000);
    const [txid, other] = [await paidCharge(500_000), await paidCharge(500_000)];
    expect(await refund(staff, txid, 200_000)).toMatchObject({ status: "pending" });
    expect(await db.refundApproval.findFirstOrThrow({ where: { txid } })).toMatchObject({
      reason: "chargeTotal",
      requestedById: staff.id,
    });
    expect(await refund(admin, other, 200_000)).toMatchObject({ status: "refunded" });
    expect(await upstreamRefundCount(txid)).toBe(0);
    expect(await upstreamRefundCount(other)).toBe(1);

    const admit = (actor: TActor | null) =>
      db.$transaction((tx) =>
        admitMoneyReturn(tx, {
          kind: "PIX_REFUND",
          resourceId: txid,
          amountCents: 200_000,
          priorCents: 0,
          idempotencyKey: randomUUID(),
          initiatedById: actor?.id ?? null,
          clearance: "none",
        }),
      );
    const refused = await admit(staff).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MoneyApprovalRequiredError);
    expect(refused).toMatchObject({ reason: "chargeTotal" });
    await expect(admit(admin)).resolves.toBeUndefined();
    // No person (the command line): held to the Operations role's limit.
    expect(await refundLimitOf(db, null)).toBe(100_000);
    await expect(admit(null)).rejects.toBeInstanceOf(MoneyApprovalRequiredError);
  });

  it("holds nothing per charge for a role whose limit is 0", async () => {
    await setRefundLimit("operations", 0);
    const txid = await paidCharge(500_000);
    expect(await refund(staff, txid, 300_000)).toMatchObject({ status: "refunded" });
    expect(await refund(otherStaff, txid, 200_000)).toMatchObject({ status: "refunded" });
    expect(await upstreamRefundCount(txid)).toBe(2);
    expect(await db.refundApproval.count()).toBe(0);
  });

  async function cardPayment(valor: number): Promise<string> {
    let transaction: TPaymentTransaction;
    try {
      transaction = await cardGateway.createPayment(approvedCardRequest(valor));
    } catch (error) {
      if (!(error instanceof GatewayRefusedError)) throw error;
      throw new Error("the test card was refused");
    }
    await upsertCardPaymentFromGateway(transaction, { origin: "TERMINAL", cardBin: "411111", cardLastFour: "1111" });
    return transaction.id;
  }

  it("holds an Operations cancel of a R$ 9.000 card payment until a second admin approves it", async () => {
    const paymentId = await cardPayment(9000);
    await expect(
      submitCardPaymentCancel({ paymentId, idempotencyKey: randomUUID() }, contextOf(staff)),
    ).rejects.toMatchObject({ code: "CONFLICT", messageKey: "cardPayments.errors.cancelHeldForApproval" });
    const upstream = await cardGateway.getPayment(paymentId);
    expect(upstream.status).toBe("CON");
    const held = await db.refundApproval.findFirstOrThrow({ where: { paymentId } });
    expect(held).toMatchObject({ kind: "CARD_CANCEL", reason: "chargeTotal", amountCents: 900_000, status: "PENDING" });

    // Operations cannot decide; an approver who asked would need another one.
    await expect(approveMoneyApproval(held.id, staff, contextOf(staff), "123456")).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await approve(held.id, admin);
    expect((await cardGateway.getPayment(paymentId)).status).toBe("CAN");
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: "CAN" });
    expect(await db.refundApproval.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({
      status: "APPROVED",
      decidedById: admin.id,
    });
    // Counted against the person who asked, not the approver.
    expect(await db.moneyReturn.findFirstOrThrow({ where: { resourceId: paymentId } })).toMatchObject({
      initiatedById: staff.id,
      amountCents: 900_000,
    });
  });

  it("cancels a card payment below the role limit at once, and a rejected cancel leaves it approved", async () => {
    const small = await cardPayment(50);
    expect(
      await submitCardPaymentCancel({ paymentId: small, idempotencyKey: randomUUID() }, contextOf(staff)),
    ).toMatchObject({ status: "CAN" });
    const large = await cardPayment(2000);
    await expect(
      submitCardPaymentCancel({ paymentId: large, idempotencyKey: randomUUID() }, contextOf(admin)),
    ).rejects.toMatchObject({ messageKey: "cardPayments.errors.cancelHeldForApproval" });
    const held = await db.refundApproval.findFirstOrThrow({ where: { paymentId: large } });
    await expect(approve(held.id, admin)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await rejectMoneyApproval(held.id, secondAdmin, contextOf(secondAdmin));
    expect((await cardGateway.getPayment(large)).status).toBe("CON");
  });
});
