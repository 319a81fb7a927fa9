import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { approveMoneyApproval, rejectMoneyApproval } from "@/lib/approvals/approvals";
import type { TPermission } from "@/lib/auth/permissions";
import { permissionsOfRole } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { freshApproverCode, makeIndependentApprover } from "@/lib/testing/independent-approver";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPixCharge, getPixChargeView } from "./charges";
import { submitPixRefund } from "./refund-approvals";
import { ZCreatePixChargeInput } from "./schemas";

// `isCrashing`: the process dies right after the gateway made the refund, before anything is recorded.
// `isReadWithoutReference`: a gateway whose read by id does not carry userReference either (nothing can be sure).
const fault = vi.hoisted(() => ({ isCrashing: false, isReadWithoutReference: false }));
vi.mock("@/lib/gateway/pix-refunds", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/gateway/pix-refunds")>();
  return {
    ...actual,
    requestPixRefund: vi.fn(async (body: Parameters<typeof actual.requestPixRefund>[0]) => {
      const refund = await actual.requestPixRefund(body);
      if (fault.isCrashing) throw new Error("the process died after the gateway answered");
      return refund;
    }),
    getPixRefund: vi.fn(async (pixRefundId: string) => {
      const refund = await actual.getPixRefund(pixRefundId);
      return fault.isReadWithoutReference ? { ...refund, userReference: null } : refund;
    }),
  };
});

// A refund left pending by a crash between the gateway's answer and the local record: its recovery finds it by what
// the spec guarantees (userReference on read, 4.5), whether the list items carry userReference or not, and holds it
// for an admin when it cannot be sure. Never two refunds upstream for one request.
describe.each<TTestBackend>(testBackends)("recovering a Pix refund after a crash (%s)", (backend) => {
  let embedded: { close: () => Promise<void> } | undefined;
  const postgresUrl = process.env.DATABASE_URL;

  beforeAll(async () => {
    if (backend === "pglite") embedded = await useEmbeddedDefaultDatabase();
  }, 240_000);

  afterAll(async () => {
    await embedded?.close();
    if (backend === "pglite") {
      delete process.env.PGLITE_DATA_DIR;
      process.env.DATABASE_URL = postgresUrl;
    }
  });

  describe.each(["include", "omit"] as const)("list items' userReference: %s", (listMode) => {
    let sandbox: TSandbox;
    let staff: { id: string; email: string };
    let admin: { id: string; email: string; permissions: TPermission[] };
    const contextOf = (actor: { id: string; email: string }) => ({ actor, ip: "203.0.113.9" });

    beforeAll(async () => {
      sandbox = await startGatewaySandbox({ env: { SANDBOX_REFUND_LIST_USER_REFERENCE: listMode } });
    }, 240_000);

    afterAll(async () => {
      await db.refundApproval.deleteMany();
      await sandbox?.stop();
    });

    beforeEach(async () => {
      fault.isCrashing = false;
      fault.isReadWithoutReference = false;
      await db.refundApproval.deleteMany();
      await db.moneyReturn.deleteMany();
      await db.idempotencyKey.deleteMany();
      await db.pixCharge.deleteMany();
      await db.auditLog.deleteMany();
      await db.user.deleteMany();
      const user = await db.user.create({ data: { email: "caio@example.com", name: "Caio", passwordHash: "x" } });
      staff = { id: user.id, email: user.email };
      const adminUser = await db.user.create({
        data: { email: "ana@example.com", name: "Ana", passwordHash: "x", roleId: "administrator" },
      });
      admin = { id: adminUser.id, email: adminUser.email, permissions: permissionsOfRole("administrator", null) };
      await makeIndependentApprover(admin);
    });

    async function paidCharge(amountCents: number): Promise<string> {
      const input = ZCreatePixChargeInput.parse({ idempotencyKey: randomUUID(), amountCents, expirationSeconds: 600 });
      const { txid } = await createPixCharge(input, contextOf(staff));
      await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
      await getPixChargeView(txid, { refresh: true });
      return txid;
    }

    const upstreamRefunds = async (txid: string) =>
      (await sandbox.request("merchant", "GET", `/api/v1/pix-refunds?pixChargeTxid=${txid}&size=100`)).body.content as {
        pixRefundId: string;
        userReference?: string | null;
      }[];

    // The refund reaches the gateway, then the process dies: the key is left PENDING, and its lease runs out.
    async function crashAfterTheGateway(input: { idempotencyKey: string; txid: string; amountCents: number }) {
      fault.isCrashing = true;
      await expect(submitPixRefund(input, contextOf(staff))).rejects.toThrow();
      fault.isCrashing = false;
      await db.idempotencyKey.update({
        where: { scope_key: { scope: "pix_refund", key: input.idempotencyKey } },
        data: { lockedUntil: new Date(Date.now() - 1000) },
      });
      const upstream = await upstreamRefunds(input.txid);
      expect(upstream).toHaveLength(1);
      expect("userReference" in upstream[0]!).toBe(listMode === "include");
      expect(await db.pixRefund.count({ where: { txid: input.txid } })).toBe(0);
    }

    it("finds the refund the crashed attempt made and records it, never refunding twice", async () => {
      const txid = await paidCharge(5000);
      const input = { idempotencyKey: randomUUID(), txid, amountCents: 1500 };
      await crashAfterTheGateway(input);

      const recovered = await submitPixRefund(input, contextOf(staff));
      const [upstream] = await upstreamRefunds(txid);
      expect(recovered).toEqual({ status: "refunded", pixRefundId: upstream!.pixRefundId });
      expect(await upstreamRefunds(txid)).toHaveLength(1);
      expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId: upstream!.pixRefundId } })).toMatchObject({
        amountCents: 1500,
        requestedById: staff.id,
      });
      // And again: the key now answers with the same refund.
      expect(await submitPixRefund(input, contextOf(staff))).toEqual(recovered);
      expect(await upstreamRefunds(txid)).toHaveLength(1);
    });

    it("tells another request's refund from the crashed one's, and then sends the crashed one", async () => {
      const txid = await paidCharge(5000);
      // Another person's refund, recorded: the recovery must not adopt it.
      expect(
        await submitPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 1000 }, contextOf(admin)),
      ).toMatchObject({ status: "refunded" });
      // This time the process died before reaching the gateway: a PENDING key and no refund of its own upstream.
      const input = { idempotencyKey: randomUUID(), txid, amountCents: 700 };
      await db.idempotencyKey.create({
        data: { scope: "pix_refund", key: input.idempotencyKey, lockedUntil: new Date(Date.now() - 1000) },
      });
      expect(await submitPixRefund(input, contextOf(staff))).toMatchObject({ status: "refunded" });
      expect(await upstreamRefunds(txid)).toHaveLength(2);
    });

    // Only a gateway whose list items omit userReference leaves the app unsure.
    if (listMode === "omit") {
      it("holds the refund for an admin when the gateway's reads cannot tell, and never sends it again by itself", async () => {
        const txid = await paidCharge(5000);
        const input = { idempotencyKey: randomUUID(), txid, amountCents: 1500 };
        await crashAfterTheGateway(input);
        fault.isReadWithoutReference = true;

        const held = await submitPixRefund(input, contextOf(staff));
        expect(held).toMatchObject({ status: "pending" });
        // A retry of the same form is the same hold.
        expect(await submitPixRefund(input, contextOf(staff))).toEqual(held);
        expect(await upstreamRefunds(txid)).toHaveLength(1);
        const approval = await db.refundApproval.findUniqueOrThrow({ where: { recoveryOfKey: input.idempotencyKey } });
        expect(approval).toMatchObject({ kind: "PIX_REFUND_RECOVERY", reason: "unsureRecovery", amountCents: 1500 });
        // The held amount is not available to refund meanwhile: R$ 50 paid, R$ 15 may be gone.
        await expect(
          submitPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 3600 }, contextOf(staff)),
        ).rejects.toMatchObject({ code: "UNPROCESSABLE" });

        // The admin finds the refund at the gateway and marks it as not sent... which here is wrong on purpose, to
        // show the decision is theirs: the same form then sends a new refund.
        await rejectMoneyApproval(approval.id, admin, contextOf(admin));
        expect(await db.idempotencyKey.findFirstOrThrow({ where: { key: input.idempotencyKey } })).toMatchObject({
          status: "FAILED",
        });
        expect(
          await db.auditLog.findFirstOrThrow({ where: { action: "refund_approval.rejected", resourceId: txid } }),
        ).toMatchObject({ actorId: admin.id, metadata: expect.objectContaining({ decision: "markedNotSent" }) });
      });

      it("sends an unsure refund again on an admin's decision, once", async () => {
        const txid = await paidCharge(5000);
        const input = { idempotencyKey: randomUUID(), txid, amountCents: 1500 };
        await crashAfterTheGateway(input);
        // As if the gateway had lost it: the refund failed upstream, so nothing says it exists.
        fault.isReadWithoutReference = true;
        const held = await submitPixRefund(input, contextOf(staff));
        if (held.status !== "pending") throw new Error("expected a hold");

        const sendAgain = async () =>
          approveMoneyApproval(held.approvalId, admin, contextOf(admin), await freshApproverCode(admin.id));
        const { pixRefundId } = await sendAgain();
        expect(await sendAgain()).toEqual({ pixRefundId });
        expect(await upstreamRefunds(txid)).toHaveLength(2);
        // The first form's key now answers with the refund sent again: retrying it sends nothing more.
        fault.isReadWithoutReference = false;
        expect(await submitPixRefund(input, contextOf(staff))).toEqual({ status: "refunded", pixRefundId });
        expect(await upstreamRefunds(txid)).toHaveLength(2);
        expect(
          await db.auditLog.findFirstOrThrow({ where: { action: "refund_approval.approved", resourceId: txid } }),
        ).toMatchObject({ actorId: admin.id, metadata: expect.objectContaining({ decision: "sentAgain" }) });
      });
    }
  });
});
