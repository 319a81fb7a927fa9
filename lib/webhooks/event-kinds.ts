import "server-only";
import { db } from "@/lib/db/client";
import { GatewayHttpError } from "@/lib/gateway/errors";
import { getPaymentLink, listPaymentLinks } from "@/lib/gateway/payment-links";
import { getPixCharge, listPixCharges } from "@/lib/gateway/pix-charges";
import { listPixRefunds } from "@/lib/gateway/pix-refunds";
import { type TPaymentLink, ZPaymentLink } from "@/lib/gateway/schemas/payment-link";
import { type TPixCharge, type TPixChargeListItem, ZPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { type TPixRefund, ZPixRefund } from "@/lib/gateway/schemas/pix-refund";
import {
  isPaymentLinkBehindMirror,
  lockPaymentLink,
  syncPaymentLinkFromGateway,
  upsertPaymentLinkFromGateway,
} from "@/lib/links/mirror";
import { isPaymentLinkCharge, recordLinkPaymentFromCharge } from "@/lib/links/pix";
import { toSaoPauloDay, toUpstreamPeriod } from "@/lib/list/period";
import {
  isPixChargeBehindMirror,
  isPixRefundBehindMirror,
  lockPixCharge,
  pixChargeLockKey,
  syncPixChargeFromGateway,
  upsertPixChargeFromGateway,
  upsertPixRefundFromGateway,
} from "@/lib/pix/mirror";
import { chargeChangeColumns, writeFullChargesWithoutRefunds } from "@/lib/pix/mirror-sql";
import { amountToCents } from "@/lib/shared/money";
import {
  defineEventKind,
  describeChange,
  readAudited,
  type TAnyEventKind,
  type TEventKind,
  type TReconcileRun,
} from "./event-kind";
import type { TWebhookEvent } from "./event-names";

// THE registry of webhook event kinds, one per gateway event (spec 6.1); see docs/webhooks.md to add one.

const chargeResource = {
  change: "pix_charge",
  audit: { table: "PixCharge", key: "txid", fields: chargeChangeColumns },
} as const;
const refundResource = {
  change: "pix_refund",
  audit: {
    table: "PixRefund",
    key: "pixRefundId",
    fields: ["statusCode", "statusDescription", "statusReason", "amountCents", "settlementDate"],
  },
} as const;
const linkResource = {
  change: "payment_link",
  audit: {
    table: "PaymentLink",
    key: "linkPaymentUuid",
    fields: ["statusCode", "statusDescription", "amountCents", "paidMethodCode", "paymentReceipt", "transactionId"],
  },
} as const;

// A read of a resource the gateway does not know answers null; any other failure fails the apply (retried).
async function orNullWhenUnknown<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 404) return null;
    throw error;
  }
}

const paidChargeStatuses = ["PAID", "PARTIALLY REFUNDED", "REFUNDED"];

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// A full read carries the payment and refunds a list item lacks; read once per run and authoritative (drift recorded).
async function healCharge(txid: string, run: TReconcileRun): Promise<void> {
  if (run.visited.has(`pix_charge:${txid}`)) return;
  run.visited.add(`pix_charge:${txid}`);
  const before = await db.pixCharge.findUnique({
    where: { txid },
    select: { status: true, refunds: { select: { pixRefundId: true, statusCode: true } } },
  });
  const { outcome, charge, upstream } = await syncPixChargeFromGateway(txid, "reconcile");
  await recordLinkPaymentFromCharge(upstream);
  if (outcome !== "created" && outcome !== "updated") return;
  if (before?.status !== charge.status)
    run.healed.push({ kind: "pix_charge", id: txid, from: before?.status ?? null, to: charge.status });
  const codeBefore = new Map(before?.refunds.map((refund) => [refund.pixRefundId, refund.statusCode]));
  for (const refund of charge.refunds)
    recordRefundHeal(run, refund.pixRefundId, codeBefore.get(refund.pixRefundId), refund.statusCode);
}

function recordRefundHeal(run: TReconcileRun, pixRefundId: string, before: number | undefined, after: number): void {
  if (before === after || run.healed.some((item) => item.kind === "pix_refund" && item.id === pixRefundId)) return;
  run.healed.push({
    kind: "pix_refund",
    id: pixRefundId,
    from: before === undefined ? null : String(before),
    to: String(after),
  });
}

async function healCharges(items: TPixChargeListItem[], run: TReconcileRun): Promise<void> {
  run.scanned.pix_charge += items.length;
  const mirrored = await db.pixCharge.findMany({
    where: { txid: { in: items.map((item) => item.txid) } },
    select: { txid: true, status: true },
  });
  const statusByTxid = new Map(mirrored.map((row) => [row.txid, row.status]));
  for (const item of items) {
    if (statusByTxid.get(item.txid) === item.status) continue;
    try {
      await healCharge(item.txid, run);
    } catch (error) {
      run.errors.push(`pix_charge ${item.txid}: ${describeError(error)}`);
    }
  }
}

async function healRefunds(items: TPixRefund[], run: TReconcileRun): Promise<void> {
  run.scanned.pix_refund += items.length;
  const mirrored = await db.pixRefund.findMany({
    where: { pixRefundId: { in: items.map((item) => item.pixRefundId) } },
    select: { pixRefundId: true, statusCode: true },
  });
  const codeById = new Map(mirrored.map((row) => [row.pixRefundId, row.statusCode]));
  for (const refund of items) {
    const before = codeById.get(refund.pixRefundId);
    if (before === refund.status.code) continue;
    try {
      // The charge's status follows its refunds: read it whole first, then the refund in case that read is older.
      await healCharge(refund.pixChargeTxid, run);
      await upsertPixRefundFromGateway(refund);
      const after = await db.pixRefund.findUnique({
        where: { pixRefundId: refund.pixRefundId },
        select: { statusCode: true },
      });
      if (after) recordRefundHeal(run, refund.pixRefundId, before, after.statusCode);
    } catch (error) {
      run.errors.push(`pix_refund ${refund.pixRefundId}: ${describeError(error)}`);
    }
  }
}

// The gateway's list carries each link whole: one that disagrees with the mirror is read alone (authoritative).
async function healLinks(items: TPaymentLink[], run: TReconcileRun): Promise<void> {
  run.scanned.payment_link += items.length;
  const mirrored = await db.paymentLink.findMany({
    where: { linkPaymentUuid: { in: items.map((item) => item.linkPaymentUuid) } },
    select: { linkPaymentUuid: true, statusCode: true, amountCents: true },
  });
  const byUuid = new Map(mirrored.map((row) => [row.linkPaymentUuid, row]));
  for (const item of items) {
    const before = byUuid.get(item.linkPaymentUuid);
    if (!before) continue; // a link made elsewhere: the links page's refresh imports it
    if (before.statusCode === item.status.code && before.amountCents === amountToCents(item.valor)) continue;
    try {
      const { link } = await syncPaymentLinkFromGateway(item.linkPaymentUuid, "reconcile");
      if (link.statusCode !== before.statusCode)
        run.healed.push({
          kind: "payment_link",
          id: item.linkPaymentUuid,
          from: String(before.statusCode),
          to: String(link.statusCode),
        });
    } catch (error) {
      run.errors.push(`payment_link ${item.linkPaymentUuid}: ${describeError(error)}`);
    }
  }
}

const pixChargePaid = defineEventKind({
  event: "pix_charge.paid",
  schema: ZPixCharge,
  ...chargeResource,
  identity: (charge) => ({ resourceId: charge.txid, state: charge.status }),
  confirm: {
    readUpstream: (charge) => orNullWhenUnknown(getPixCharge(charge.txid)),
    isBehindMirror: isPixChargeBehindMirror,
    // Paid, and perhaps refunded since: the payment happened.
    bearsOut: (charge) => charge.pix !== null && paidChargeStatuses.includes(charge.status),
  },
  async apply(tx, charge, _prepared, authority) {
    await lockPixCharge(tx, charge.txid);
    const before = await readAudited(tx, chargeResource.audit, charge.txid);
    const result = await upsertPixChargeFromGateway(charge, { client: tx, authority });
    await recordLinkPaymentFromCharge(charge, { client: tx });
    return [describeChange(chargeResource, charge.txid, result.outcome, before, result.charge)].filter(
      (change) => change !== null,
    );
  },
  // The common event (a non-link charge without refunds) is one raw statement under the charge's lock; a copy refused
  // as a move back goes to the general path (second read).
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
  reconcile: { list: listPixCharges, heal: healCharges },
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
      const charge = await orNullWhenUnknown(getPixCharge(refund.pixChargeTxid));
      return charge?.devolutions?.find((item) => item.pixRefundId === refund.pixRefundId) ?? null;
    },
    isBehindMirror: isPixRefundBehindMirror,
  },
  // A refund's event can beat its charge's paid event: the charge is read upstream, and a failed read is retried.
  prepare: (refund) => getPixCharge(refund.pixChargeTxid),
  async apply(tx, refund, chargeOfRefund, authority) {
    await lockPixCharge(tx, refund.pixChargeTxid);
    const chargeBefore = await readAudited(tx, chargeResource.audit, refund.pixChargeTxid);
    const refundBefore = await readAudited(tx, refundResource.audit, refund.pixRefundId);
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
  reconcile: { list: listPixRefunds, heal: healRefunds },
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
    readUpstream: (link) => orNullWhenUnknown(getPaymentLink(link.linkPaymentUuid)),
    isBehindMirror: isPaymentLinkBehindMirror,
  },
  async apply(tx, link, _prepared, authority) {
    await lockPaymentLink(tx, link.linkPaymentUuid);
    const before = await readAudited(tx, linkResource.audit, link.linkPaymentUuid);
    const result = await upsertPaymentLinkFromGateway(link, { client: tx, authority });
    return [describeChange(linkResource, link.linkPaymentUuid, result.outcome, before, result.link)].filter(
      (change) => change !== null,
    );
  },
  // The spec's link list is one unpaged array in zone-less Brasília time: the São Paulo days covering the window.
  reconcile: {
    list: async ({ initialDate, endDate, page }) => {
      if (page > 0) return { content: [], last: true };
      const days = { from: toSaoPauloDay(new Date(initialDate)), to: toSaoPauloDay(new Date(endDate)) };
      const period = toUpstreamPeriod(days);
      return {
        content: await listPaymentLinks({ startDate: period.initialDate, endDate: period.endDate }),
        last: true,
      };
    },
    heal: healLinks,
  },
  resourceHref: async (uuid) => `/links/${encodeURIComponent(uuid)}`,
});

// One entry per gateway event (enforced by the type); order is reconciliation's (charges before refunds).
export const eventKinds = {
  "pix_charge.paid": pixChargePaid,
  "pix_refund.returned": pixRefundReturned,
  "link_payment.paid": linkPaymentPaid,
  // biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own data types
} satisfies { [E in TWebhookEvent]: TEventKind<E, any, any, any> };

export const allEventKinds = Object.values(eventKinds) as unknown as TAnyEventKind[];

export function findEventKind(event: string): TAnyEventKind | undefined {
  return allEventKinds.find((kind) => kind.event === event);
}

export async function resourceHref(resourceType: string, resourceId: string): Promise<string | null> {
  const kind = allEventKinds.find((entry) => entry.change === resourceType);
  return kind ? kind.resourceHref(resourceId) : null;
}
