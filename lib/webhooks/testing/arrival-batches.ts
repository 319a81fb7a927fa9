// Tests only: the receiver's group commit under concurrent deliveries, run on PostgreSQL and on PGlite
// (arrival-batch*.int.test.ts). Every delivery goes through the route, as the gateway sends it.
import { randomBytes, randomUUID } from "node:crypto";
import { beforeEach, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ZPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { paidCharge, paidChargeEvent } from "./fixtures";
import { postSignedDelivery, storeReceiverWebhook, useReceiverSandbox } from "./receiver-harness";

const secret = `whsec_${randomBytes(24).toString("hex")}`;

export function itAppliesConcurrentArrivalsInBatches(): void {
  let webhookId: string;

  async function deliver(payload: unknown, deliveryId?: string) {
    const headers = deliveryId ? { "x-webhook-delivery": deliveryId } : {};
    const posted = await postSignedDelivery({ webhookId, secret, payload, headers });
    const body = (await posted.response.json()) as { outcome: string };
    return { status: posted.response.status, outcome: body.outcome, deliveryId: posted.deliveryId };
  }

  async function mirroredOpenCharge(overrides: Record<string, unknown> = {}): Promise<string> {
    const txid = `TX${randomUUID().replaceAll("-", "")}`;
    await upsertPixChargeFromGateway(ZPixCharge.parse(paidCharge(txid, { status: "ACTIVE", pix: null, ...overrides })));
    return txid;
  }

  useReceiverSandbox();

  beforeEach(async () => {
    webhookId = await storeReceiverWebhook(secret);
  });

  it("applies each of many concurrent events once, in shared transactions, and sends the rest down the general path", async () => {
    const txids = await Promise.all(Array.from({ length: 20 }, () => mirroredOpenCharge()));
    // Mirrored with another amount: the batch must give its claim back, and the gateway (which does not know
    // it) decides: IGNORED, nothing written.
    const mismatched = await mirroredOpenCharge({ amount: 30 });
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
    expect(new Set(applied.map((row) => row.receivedAt.getTime())).size).toBeLessThan(applied.length);

    // The claim given back: the genuine event (the mirrored amount) still applies.
    const genuine = await deliver(
      paidChargeEvent(mismatched, { amount: 30, pix: { ...paidCharge(mismatched).pix, amount: "30.00" } }),
    );
    expect(genuine.outcome).toBe("APPLIED");
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: mismatched } })).toMatchObject({ status: "PAID" });
  });
}
