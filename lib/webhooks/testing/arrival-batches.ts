// Tests only: the receiver's group commit under concurrent deliveries, on PostgreSQL and PGlite (arrival-batch*.int.test.ts).
import { randomBytes } from "node:crypto";
import { beforeEach, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createPixCharge } from "@/lib/gateway/pix-charges";
import { upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { paidChargeEvent } from "./fixtures";
import { postSignedDelivery, storeReceiverWebhook, useReceiverSandbox } from "./receiver-harness";

const secret = `whsec_${randomBytes(24).toString("hex")}`;

// `isSharingCommitsExpected`: on PostgreSQL concurrent deliveries meet in one commit here; on PGlite they often don't.
export function itAppliesConcurrentArrivalsInBatches(options: { isSharingCommitsExpected: boolean }): void {
  let webhookId: string;

  async function deliver(payload: unknown, deliveryId?: string) {
    const headers = deliveryId ? { "x-webhook-delivery": deliveryId } : {};
    const posted = await postSignedDelivery({ webhookId, secret, payload, headers });
    const body = (await posted.response.json()) as { outcome: string };
    return { status: posted.response.status, outcome: body.outcome, deliveryId: posted.deliveryId };
  }

  // Created at the gateway and mirrored ACTIVE; paid there unless `isPaid` is false.
  async function mirroredOpenCharge(isPaid = true): Promise<string> {
    const charge = await createPixCharge({ amount: 25.9, expiration: 600 });
    await upsertPixChargeFromGateway(charge);
    if (isPaid) await pay(charge.txid);
    return charge.txid;
  }

  const sandbox = useReceiverSandbox();
  const pay = (txid: string) => sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);

  beforeEach(async () => {
    webhookId = await storeReceiverWebhook(secret);
  });

  it("applies each of many concurrent events once, in shared transactions, and sends the rest down the general path", async () => {
    // One after another: each holds a transaction of the pool while it mirrors.
    const txids: string[] = [];
    for (let index = 0; index < 20; index += 1) txids.push(await mirroredOpenCharge());
    // Not paid at the gateway: its copy says ACTIVE, so the general path IGNOREs it, no effect claimed.
    const mismatched = await mirroredOpenCharge(false);
    const firsts = txids.map((txid) => deliver(paidChargeEvent(txid)));
    const copies = txids.map((txid) => deliver(paidChargeEvent(txid)));
    const results = await Promise.all([...firsts, ...copies, deliver(paidChargeEvent(mismatched))]);
    // Retries of answered deliveries, under the same delivery id.
    const retries = await Promise.all(
      results.slice(0, 5).map((result, index) => deliver(paidChargeEvent(txids[index]!), result.deliveryId)),
    );

    expect(results.every((result) => result.status === 200)).toBe(true);
    const outcomes = (list: Array<{ outcome: string }>) => list.map((result) => result.outcome);
    for (const [index] of txids.entries())
      expect([outcomes(results)[index], outcomes(results)[index + txids.length]].sort()).toEqual([
        "APPLIED",
        "DUPLICATE",
      ]);
    expect(outcomes(results).at(-1)).toBe("IGNORED");
    expect(outcomes(retries)).toEqual(Array(5).fill("DUPLICATE"));

    const charges = await db.pixCharge.findMany({ where: { txid: { in: txids } }, select: { status: true } });
    expect(charges.map((charge) => charge.status)).toEqual(Array(20).fill("PAID"));
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: mismatched } })).toMatchObject({ status: "ACTIVE" });
    const eventKey = (txid: string) => `pix_charge.paid:${txid}:PAID`;
    const effects = await db.webhookEffect.findMany({
      where: { eventKey: { in: [...txids, mismatched].map(eventKey) } },
    });
    expect(effects.map((effect) => effect.eventKey).sort()).toEqual(txids.map(eventKey).sort());
    const deliveries = await db.webhookDelivery.findMany({ where: { webhookId } });
    expect(deliveries).toHaveLength(46);
    expect(deliveries.filter((row) => row.outcome === "PENDING" || row.outcome === "FAILED")).toEqual([]);
    const applied = deliveries.filter((row) => row.outcome === "APPLIED");
    expect(new Set(applied.map((row) => row.resourceId)).size).toBe(20);
    // receivedAt is the transaction's start: fewer distinct values than rows means deliveries shared a commit.
    if (options.isSharingCommitsExpected)
      expect(new Set(applied.map((row) => row.receivedAt.getTime())).size).toBeLessThan(applied.length);

    // No claim was left behind: once the payer pays, the genuine event applies.
    await pay(mismatched);
    const genuine = await deliver(paidChargeEvent(mismatched));
    expect(genuine.outcome).toBe("APPLIED");
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: mismatched } })).toMatchObject({ status: "PAID" });
  });

  it("looks up what concurrent deliveries have seen before together, and answers each from its own row", async () => {
    const applied: string[] = [];
    for (let index = 0; index < 8; index += 1) applied.push(await mirroredOpenCharge());
    for (const txid of applied) expect((await deliver(paidChargeEvent(txid))).outcome).toBe("APPLIED");
    const fresh: string[] = [];
    for (let index = 0; index < 8; index += 1) fresh.push(await mirroredOpenCharge());

    // Re-sends of applied bodies interleaved with first deliveries of other charges.
    const results = await Promise.all(
      applied.flatMap((txid, index) => [deliver(paidChargeEvent(txid)), deliver(paidChargeEvent(fresh[index]!))]),
    );

    expect(results.map((result) => result.outcome)).toEqual(applied.flatMap(() => ["DUPLICATE", "APPLIED"]));
    const rows = await db.webhookDelivery.findMany({
      where: { webhookId },
      select: { id: true, resourceId: true, outcome: true, duplicateOfId: true },
    });
    for (const txid of applied) {
      const first = rows.find((row) => row.resourceId === txid && row.outcome === "APPLIED");
      const repeat = rows.find((row) => row.resourceId === txid && row.outcome === "DUPLICATE");
      expect(repeat?.duplicateOfId).toBe(first?.id);
    }
    const charges = await db.pixCharge.findMany({ where: { txid: { in: fresh } }, select: { status: true } });
    expect(charges.map((charge) => charge.status)).toEqual(Array(8).fill("PAID"));
  });
}
