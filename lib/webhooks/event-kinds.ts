import "server-only";
import { db } from "@/lib/db/client";
import { getPaymentLink } from "@/lib/gateway/payment-links";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import { ZPaymentLink } from "@/lib/gateway/schemas/payment-link";
import { type TPixCharge, ZPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { ZPixRefund } from "@/lib/gateway/schemas/pix-refund";
import { isPaymentLinkBehindMirror, lockPaymentLink, upsertPaymentLinkFromGateway } from "@/lib/links/mirror";
import { isPaymentLinkCharge, recordLinkPaymentFromCharge } from "@/lib/links/pix";
import { readOrNullWhenUnknown } from "@/lib/mirror/read-through";
import {
  isPixChargeBehindMirror,
  isPixRefundBehindMirror,
  lockPixCharge,
  pixChargeLockKey,
  upsertPixChargeFromGateway,
  upsertPixRefundFromGateway,
} from "@/lib/pix/mirror";
import { chargeChangeColumns, writeFullChargesWithoutRefunds } from "@/lib/pix/mirror-sql";
import { defineEventKind, describeChange, readMirrorRow, type TAnyEventKind, type TEventKind } from "./event-kind";
import type { TWebhookEvent } from "./event-names";

// THE registry of webhook event kinds, one per gateway event (spec 6.1); see docs/webhooks.md to add one.

const chargeResource = {
  change: "pix_charge",
  row: { table: "PixCharge", key: "txid", fields: chargeChangeColumns },
} as const;
const refundResource = {
  change: "pix_refund",
  row: {
    table: "PixRefund",
    key: "pixRefundId",
    fields: ["statusCode", "statusDescription", "statusReason", "amountCents", "settlementDate"],
  },
} as const;
const linkResource = {
  change: "payment_link",
  row: {
    table: "PaymentLink",
    key: "linkPaymentUuid",
    fields: ["statusCode", "statusDescription", "amountCents", "paidMethodCode", "paymentReceipt", "transactionId"],
  },
} as const;

const paidChargeStatuses = ["PAID", "PARTIALLY REFUNDED", "REFUNDED"];

const pixChargePaid = defineEventKind({
  event: "pix_charge.paid",
  schema: ZPixCharge,
  ...chargeResource,
  identity: (charge) => ({ resourceId: charge.txid, state: charge.status }),
  confirm: {
    readUpstream: (charge) => readOrNullWhenUnknown(() => getPixCharge(charge.txid)),
    isBehindMirror: isPixChargeBehindMirror,
    // Paid, and perhaps refunded since: the payment happened.
    bearsOut: (charge) => charge.pix !== null && paidChargeStatuses.includes(charge.status),
  },
  async apply(tx, charge, _prepared, authority) {
    await lockPixCharge(tx, charge.txid);
    const before = await readMirrorRow(tx, chargeResource.row, charge.txid);
    const result = await upsertPixChargeFromGateway(charge, { client: tx, authority });
    await recordLinkPaymentFromCharge(charge, { client: tx });
    return [describeChange(chargeResource, charge.txid, result.outcome, before, result.charge)].filter(
      (change) => change !== null,
    );
  },
  // The common event (a non-link charge without refunds) is one raw statement under the charge's lock.
  fastPath: {
    accepts: (charge) => !charge.devolutions?.length && !isPaymentLinkCharge(charge.userReference),
    lockKey: (charge) => pixChargeLockKey(charge.txid),
    async apply(run, charges: TPixCharge[]) {
      const written = await writeFullChargesWithoutRefunds(run, charges, new Date());
      return charges.map((charge, index) => {
        const write = written[index];
        if (!write || write.outcome === "stale") return null;
        const change = describeChange(chargeResource, charge.txid, write.outcome, write.before, write.after);
        const isWritten = write.outcome === "created" || write.outcome === "updated";
        return {
          changes: change ? [change] : [],
          notify: isWritten ? [{ kind: chargeResource.change, id: charge.txid }] : [],
        };
      });
    },
  },
  resourceHref: async (txid) => `/pix/${encodeURIComponent(txid)}`,
});

const pixRefundReturned = defineEventKind({
  event: "pix_refund.returned",
  schema: ZPixRefund,
  ...refundResource,
  identity: (refund) => ({ resourceId: refund.pixRefundId, state: refund.status.code }),
  // The gateway's copy of a refund is the one in its charge's full read.
  confirm: {
    async readUpstream(refund) {
      const charge = await readOrNullWhenUnknown(() => getPixCharge(refund.pixChargeTxid));
      return charge?.devolutions?.find((item) => item.pixRefundId === refund.pixRefundId) ?? null;
    },
    isBehindMirror: isPixRefundBehindMirror,
  },
  // A refund's event can beat its charge's paid event: the charge is read upstream, and a failed read is retried.
  prepare: (refund) => getPixCharge(refund.pixChargeTxid),
  async apply(tx, refund, chargeOfRefund, authority) {
    await lockPixCharge(tx, refund.pixChargeTxid);
    const chargeBefore = await readMirrorRow(tx, chargeResource.row, refund.pixChargeTxid);
    const refundBefore = await readMirrorRow(tx, refundResource.row, refund.pixRefundId);
    // Only when the effect was claimed by someone else after prepare() and then rolled back: retried.
    if (!chargeOfRefund) throw new Error(`the charge ${refund.pixChargeTxid} was not read upstream`);
    const charge = await upsertPixChargeFromGateway(chargeOfRefund, { client: tx, authority });
    const written = await upsertPixRefundFromGateway(refund, { client: tx, authority });
    const refundAfter = await tx.pixRefund.findUniqueOrThrow({ where: { pixRefundId: refund.pixRefundId } });
    const chargeAfter = await tx.pixCharge.findUniqueOrThrow({ where: { txid: refund.pixChargeTxid } });
    return [
      describeChange(refundResource, refund.pixRefundId, written?.outcome ?? "created", refundBefore, refundAfter),
      describeChange(chargeResource, refund.pixChargeTxid, charge.outcome, chargeBefore, chargeAfter),
    ].filter((change) => change !== null);
  },
  async resourceHref(pixRefundId) {
    const refund = await db.pixRefund.findUnique({ where: { pixRefundId }, select: { txid: true } });
    return refund ? `/refunds?txid=${encodeURIComponent(refund.txid)}` : null;
  },
});

const linkPaymentPaid = defineEventKind({
  event: "link_payment.paid",
  // The spec leaves this payload "not shown"; the sandbox sends the link (2.6).
  schema: ZPaymentLink,
  ...linkResource,
  identity: (link) => ({ resourceId: link.linkPaymentUuid, state: link.status.code }),
  confirm: {
    readUpstream: (link) => readOrNullWhenUnknown(() => getPaymentLink(link.linkPaymentUuid)),
    isBehindMirror: isPaymentLinkBehindMirror,
  },
  async apply(tx, link, _prepared, authority) {
    await lockPaymentLink(tx, link.linkPaymentUuid);
    const before = await readMirrorRow(tx, linkResource.row, link.linkPaymentUuid);
    const result = await upsertPaymentLinkFromGateway(link, { client: tx, authority });
    return [describeChange(linkResource, link.linkPaymentUuid, result.outcome, before, result.link)].filter(
      (change) => change !== null,
    );
  },
  resourceHref: async (uuid) => `/links/${encodeURIComponent(uuid)}`,
});

// One entry per gateway event (enforced by the type).
export const eventKinds = {
  "pix_charge.paid": pixChargePaid,
  "pix_refund.returned": pixRefundReturned,
  "link_payment.paid": linkPaymentPaid,
  // biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own data types
} satisfies { [E in TWebhookEvent]: TEventKind<E, any, any> };

export const allEventKinds = Object.values(eventKinds) as unknown as TAnyEventKind[];

export function findEventKind(event: string): TAnyEventKind | undefined {
  return allEventKinds.find((kind) => kind.event === event);
}

export async function resourceHref(resourceType: string, resourceId: string): Promise<string | null> {
  const kind = allEventKinds.find((entry) => entry.change === resourceType);
  return kind ? kind.resourceHref(resourceId) : null;
}
