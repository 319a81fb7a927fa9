// Tests only (PostgreSQL and PGlite): the gateway is the truth (docs/webhooks.md); a live-signed body only says "look".
import { randomBytes } from "node:crypto";
import { beforeEach, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { confirmPaymentLink, createPaymentLink } from "@/lib/gateway/payment-links";
import { createPixCharge } from "@/lib/gateway/pix-charges";
import { setSandboxClock } from "@/lib/gateway/sandbox-control";
import { ZPaymentLink } from "@/lib/gateway/schemas/payment-link";
import { ZPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { upsertPaymentLinkFromGateway } from "@/lib/links/mirror";
import { getPayPageLink } from "@/lib/links/pay-page";
import { getPaymentLinkView } from "@/lib/links/payment-links";
import { getPixChargeView } from "@/lib/pix/charges";
import { upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { listMirrorDrift } from "@/lib/reconcile/drift";
import { runReconciliation } from "@/lib/reconcile/reconcile";
import { approvedCardRequest } from "@/lib/testing/card-requests";
import { getWebhookDeliveryDetail } from "../history";
import { repeatedBodyRateLimit } from "../receive";
import { paidChargeEvent, paymentLinkEvent } from "./fixtures";
import { postSignedDelivery, storeReceiverWebhook, useReceiverSandbox } from "./receiver-harness";

const secret = `whsec_${randomBytes(24).toString("hex")}`;

export function itKeepsTheMirrorOnTheGatewaysWord(): void {
  let webhookId: string;
  const sandbox = useReceiverSandbox();

  async function deliver(payload: unknown) {
    const { response } = await postSignedDelivery({ webhookId, secret, payload });
    expect(response.status).toBe(200);
    return db.webhookDelivery.findFirstOrThrow({ where: { webhookId }, orderBy: { receivedAt: "desc" } });
  }

  // Created at the gateway and mirrored as this app saw it then (ACTIVE), for 25.90 like the fixture's payload.
  async function openCharge(): Promise<string> {
    const charge = await createPixCharge({ amount: 25.9, expiration: 600 });
    await upsertPixChargeFromGateway(charge);
    return charge.txid;
  }

  // What the old rule wrote: the forged payload's PAID, over a charge the gateway still holds ACTIVE.
  async function mirrorForgedPaid(txid: string): Promise<void> {
    await upsertPixChargeFromGateway(ZPixCharge.parse(paidChargeEvent(txid).data));
    expect((await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status).toBe("PAID");
  }

  async function openLink(): Promise<string> {
    const link = await createPaymentLink({ nomePagador: "Fulano de Tal", numeroInscricao: "52998224725", valor: 100 });
    await upsertPaymentLinkFromGateway(link);
    return link.linkPaymentUuid;
  }

  async function mirrorForgedPaidLink(uuid: string): Promise<void> {
    await upsertPaymentLinkFromGateway(ZPaymentLink.parse(paymentLinkEvent(uuid).data));
    expect((await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: uuid } })).statusCode).toBe(3);
  }

  const chargeStatus = async (txid: string) => (await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status;
  const linkStatus = async (uuid: string) =>
    (await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: uuid } })).statusCode;

  beforeEach(async () => {
    webhookId = await storeReceiverWebhook(secret, {
      events: ["pix_charge.paid", "pix_refund.returned", "link_payment.paid"],
    });
  });

  it("[money truth] a forged paid event signed with a live secret leaves an ACTIVE charge unpaid, claiming no effect", async () => {
    const txid = await openCharge();
    // Same txid, same amount as the mirror: the case the old rule applied from the payload.
    const delivery = await deliver(paidChargeEvent(txid));
    expect(delivery).toMatchObject({
      outcome: "IGNORED",
      error: "the gateway reports ACTIVE, not PAID; its copy was applied",
    });
    expect(await chargeStatus(txid)).toBe("ACTIVE");
    expect(await db.webhookEffect.count({ where: { eventKey: `pix_charge.paid:${txid}:PAID` } })).toBe(0);
    expect((await getPixChargeView(txid, { refresh: true }))?.status).toBe("ACTIVE");

    // The genuine event, when the payer pays, still applies (its effect key was left free).
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`, { payerName: "Beltrana" });
    expect(await deliver(paidChargeEvent(txid))).toMatchObject({ outcome: "APPLIED" });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      status: "PAID",
      payerName: "Beltrana",
    });
  });

  it("[money truth] a charge left PAID by a forged payload returns to ACTIVE on the next event, with the drift recorded", async () => {
    const txid = await openCharge();
    await mirrorForgedPaid(txid);
    const delivery = await deliver(paidChargeEvent(txid));
    expect(delivery).toMatchObject({ outcome: "IGNORED", error: expect.stringMatching(/gateway reports ACTIVE/) });
    expect(await chargeStatus(txid)).toBe("ACTIVE");
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      paidAt: null,
      paidAmountCents: null,
    });
    const [drift] = await listMirrorDrift({ resourceKind: "pix_charge", resourceId: txid });
    expect(drift).toMatchObject({
      source: "webhook",
      fields: expect.arrayContaining(["status"]),
      mirrorValue: expect.objectContaining({ status: "PAID" }),
      gatewayValue: expect.objectContaining({ status: "ACTIVE" }),
      healedAt: expect.any(Date),
    });
    expect(
      await db.auditLog.count({
        where: { action: "mirror.drift_corrected", resourceType: "pix_charge", resourceId: txid },
      }),
    ).toBe(1);
    expect(await db.webhookEffect.count({ where: { eventKey: `pix_charge.paid:${txid}:PAID` } })).toBe(0);
  });

  it("[money truth] a forged link_payment.paid leaves a CREATED link payable; a forged PAID mirror returns to CREATED", async () => {
    const uuid = await openLink();
    expect(await deliver(paymentLinkEvent(uuid))).toMatchObject({
      outcome: "IGNORED",
      error: "the gateway reports 1, not 3; its copy was applied",
    });
    expect(await linkStatus(uuid)).toBe(1);
    expect((await getPayPageLink(uuid))?.state).toBe("payable");

    await mirrorForgedPaidLink(uuid);
    expect(await deliver(paymentLinkEvent(uuid))).toMatchObject({ outcome: "IGNORED" });
    expect(await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: uuid } })).toMatchObject({
      statusCode: 1,
      paidAt: null,
      paidMethodCode: null,
    });
    expect((await getPayPageLink(uuid))?.state).toBe("payable");
    expect(await listMirrorDrift({ resourceKind: "payment_link", resourceId: uuid })).toEqual([
      expect.objectContaining({
        source: "webhook",
        mirrorValue: expect.objectContaining({ statusCode: 3 }),
        gatewayValue: expect.objectContaining({ statusCode: 1 }),
      }),
    ]);
    expect(await db.webhookEffect.count({ where: { eventKey: `link_payment.paid:${uuid}:3` } })).toBe(0);

    // The genuine payment applies from the gateway's copy.
    await confirmPaymentLink(uuid, { ...approvedCardRequest(100), codigoSeguranca: "123" });
    expect(await deliver(paymentLinkEvent(uuid))).toMatchObject({ outcome: "APPLIED" });
    expect(await linkStatus(uuid)).toBe(3);
  });

  it("[money truth] a refresh (?refresh=1) moves a PAID charge and a PAID link back to what the gateway says", async () => {
    const txid = await openCharge();
    await mirrorForgedPaid(txid);
    expect((await getPixChargeView(txid, { refresh: true }))?.status).toBe("ACTIVE");
    expect(await chargeStatus(txid)).toBe("ACTIVE");
    expect(await listMirrorDrift({ resourceId: txid })).toEqual([
      expect.objectContaining({ resourceKind: "pix_charge", source: "refresh" }),
    ]);

    const uuid = await openLink();
    await mirrorForgedPaidLink(uuid);
    expect((await getPaymentLinkView(uuid, { refresh: true }))?.statusCode).toBe(1);
    expect(await linkStatus(uuid)).toBe(1);
    expect(await listMirrorDrift({ resourceId: uuid })).toEqual([
      expect.objectContaining({ resourceKind: "payment_link", source: "refresh" }),
    ]);
  });

  it("[money truth] reconciliation moves a PAID charge and a PAID link back, records the drift and counts them healed", async () => {
    const txid = await openCharge();
    await mirrorForgedPaid(txid);
    const uuid = await openLink();
    await mirrorForgedPaidLink(uuid);

    const result = await runReconciliation({ trigger: "schedule" });
    expect(result.status).toBe("finished");
    if (result.status !== "finished") return;
    expect(result.run.error).toBeNull();
    expect((result.run.scanned as Record<string, number>).payment_link).toBeGreaterThanOrEqual(1);
    expect(result.run.healed).toEqual(
      expect.arrayContaining([
        { kind: "pix_charge", id: txid, from: "PAID", to: "ACTIVE" },
        { kind: "payment_link", id: uuid, from: "3", to: "1" },
      ]),
    );
    expect(await chargeStatus(txid)).toBe("ACTIVE");
    expect(await linkStatus(uuid)).toBe(1);
    expect(await listMirrorDrift({ resourceId: txid })).toEqual([
      expect.objectContaining({ source: "reconcile", mirrorValue: expect.objectContaining({ status: "PAID" }) }),
    ]);
    expect(await listMirrorDrift({ resourceId: uuid })).toEqual([expect.objectContaining({ source: "reconcile" })]);

    // Nothing left to correct: a second pass records no more drift.
    await runReconciliation({ trigger: "schedule" });
    expect(await listMirrorDrift({ resourceId: txid })).toHaveLength(1);
  });

  it("[money truth] rows older than the reconciliation window are read by id in turn: a forged old PAID charge is held", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await setSandboxClock(daysAgo(5));
    let known: string;
    try {
      known = await openCharge();
    } finally {
      await setSandboxClock(null);
    }
    const forged = `forgedold${randomBytes(8).toString("hex")}`;
    await db.pixCharge.create({
      data: {
        txid: forged,
        amountCents: 90_000,
        status: "PAID",
        paidAmountCents: 90_000,
        paidAt: daysAgo(10),
        creationDate: daysAgo(10),
        expirationSeconds: 600,
        expiresAt: daysAgo(10),
        raw: {},
        syncedAt: daysAgo(10),
      },
    });
    const checkedAt = async (txid: string) =>
      (await db.pixCharge.findUniqueOrThrow({ where: { txid } })).gatewayCheckedAt;

    // One older row a run: the never-checked newest first, healed as any read (its 10 minutes are long over).
    await runReconciliation({ trigger: "schedule", olderChecks: 1 });
    const knownCheckedAt = await checkedAt(known);
    expect(knownCheckedAt).not.toBeNull();
    expect(await chargeStatus(known)).toBe("EXPIRED");
    expect(await checkedAt(forged)).toBeNull();
    expect(await listMirrorDrift({ resourceId: forged })).toEqual([]);

    await runReconciliation({ trigger: "schedule", olderChecks: 1 });
    expect(await checkedAt(forged)).not.toBeNull();
    expect(await listMirrorDrift({ resourceId: forged })).toEqual([
      expect.objectContaining({
        resourceKind: "pix_charge",
        source: "reconcile",
        gatewayValue: expect.objectContaining({ knownToGateway: false }),
      }),
    ]);
    expect(await chargeStatus(forged)).toBe("PAID");

    // Then round again, least recently checked first.
    await runReconciliation({ trigger: "schedule", olderChecks: 1 });
    expect((await checkedAt(known))!.getTime()).toBeGreaterThan(knownCheckedAt!.getTime());
  });

  it("[money truth] forged, replayed and malformed deliveries: none accepted, none stored beyond a reference", async () => {
    const txid = await openCharge();
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    const genuineBody = Buffer.from(JSON.stringify(paidChargeEvent(txid)));
    const post = async (headers: Record<string, string | undefined> = {}, rawBody = genuineBody) => {
      const { response } = await postSignedDelivery({ webhookId, secret, rawBody, headers });
      return { status: response.status, outcome: ((await response.json()) as { outcome?: string }).outcome };
    };
    // The genuine delivery, with headers a proxy or a sender might add: only the known ones are kept.
    expect(await post({ cookie: "session=1", "x-forwarded-for": "10.0.0.1", "x-evil": "=HYPERLINK()" })).toEqual({
      status: 200,
      outcome: "APPLIED",
    });
    const first = await db.webhookDelivery.findFirstOrThrow({ where: { webhookId }, orderBy: { receivedAt: "asc" } });
    expect(Object.keys(first.headers as object).sort()).toEqual([
      "content-type",
      "x-webhook-delivery",
      "x-webhook-event",
      "x-webhook-signature",
      "x-webhook-timestamp",
    ]);
    const rowsBefore = await db.webhookDelivery.count({ where: { webhookId } });

    // Replays: the same bytes under fresh timestamps and delivery ids, past the per-webhook limit.
    const replays = [];
    for (let index = 0; index < repeatedBodyRateLimit.limit + 5; index += 1) replays.push(await post());
    // Forged: no secret, a wrong or another secret's signature; and a live secret's "paid" for an unpaid charge.
    const unpaidTxid = await openCharge();
    const forged = [
      await post({ "x-webhook-signature": "0".repeat(64) }),
      await post({ "x-webhook-signature": undefined }),
      await post({}, Buffer.from(JSON.stringify(paidChargeEvent(unpaidTxid)))),
    ];
    // Malformed: not JSON by content type, not JSON signed, no delivery id, a stale timestamp.
    const stale = String(Math.floor(Date.now() / 1000) - 3600);
    const malformed = [
      await post({ "content-type": "text/plain" }),
      await post({}, Buffer.from("{not json")),
      await post({ "x-webhook-delivery": undefined }),
      await post({ "x-webhook-timestamp": stale }),
    ];

    const all = [...replays, ...forged, ...malformed];
    const accepted = all.filter((answer) => answer.outcome === "APPLIED").length;
    const rows = await db.webhookDelivery.findMany({ where: { receivedAt: { gt: first.receivedAt } } });
    const isWhole = (row: (typeof rows)[number]) =>
      row.rawBody.length > 0 || Object.keys(row.headers as object).length > 0;
    const references = rows.filter((row) => row.duplicateOfId === first.id);
    // Stored whole beside the genuine one: only a live-signed body never seen before (evidence, applied from the copy).
    const storedWhole = rows.filter(isWhole);
    const figures = {
      tried: all.length,
      accepted,
      replaysAnswered: replays.filter((answer) => answer.status === 200).length,
      replaysLimited: replays.filter((answer) => answer.status === 429).length,
      storedAsReference: references.length,
      storedWhole: storedWhole.length,
      effects: await db.webhookEffect.count({ where: { eventKey: { contains: txid } } }),
      refusalSummaries: rows.filter((row) => !row.signatureValid || row.outcome === "STALE").length,
    };
    console.info("forged, replayed and malformed webhook deliveries:", JSON.stringify(figures));

    expect(accepted).toBe(0);
    expect(replays.slice(0, repeatedBodyRateLimit.limit).every((answer) => answer.outcome === "DUPLICATE")).toBe(true);
    expect(figures.replaysLimited).toBe(5);
    expect(references).toHaveLength(repeatedBodyRateLimit.limit);
    expect(references.every((row) => !isWhole(row))).toBe(true);
    expect(figures.effects).toBe(1);
    expect(storedWhole.map((row) => row.outcome).sort()).toEqual(["IGNORED", "IGNORED"]);
    expect(await chargeStatus(unpaidTxid)).toBe("ACTIVE");
    expect(rowsBefore).toBe(1);

    // Signatures and raw bodies are for admins; a reference shows its first delivery's body to them.
    const forStaff = await getWebhookDeliveryDetail(references[0]!.id, { canSeeRaw: false });
    expect(forStaff).toMatchObject({ headers: null, body: null, prettyBody: null, duplicateOfId: first.id });
    const forAdmin = await getWebhookDeliveryDetail(references[0]!.id, { canSeeRaw: true });
    expect(forAdmin?.body).toBe(genuineBody.toString("utf8"));
    const firstForAdmin = await getWebhookDeliveryDetail(first.id, { canSeeRaw: true });
    expect(firstForAdmin?.headers).toContainEqual(["x-webhook-signature", expect.stringMatching(/^[0-9a-f]{64}$/)]);
  });

  it("[money truth] after an outage every delivery's retry is stored and answered, past what one body may repeat", async () => {
    const bodies = [];
    for (let index = 0; index < 22; index += 1) {
      const txid = await openCharge();
      await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
      bodies.push(Buffer.from(JSON.stringify(paidChargeEvent(txid))));
    }
    const post = async (rawBody: Buffer) => (await postSignedDelivery({ webhookId, secret, rawBody })).response.status;
    for (const rawBody of bodies) expect(await post(rawBody)).toBe(200);
    const retries = [];
    for (const rawBody of bodies) retries.push(await post(rawBody));
    expect(retries).toEqual(Array(bodies.length).fill(200));
    const duplicates = await db.webhookDelivery.count({ where: { webhookId, outcome: "DUPLICATE" } });
    expect(duplicates).toBe(bodies.length);
  });

  it("[money truth] copies of one body arriving together: one stored whole, the others references to it", async () => {
    const txid = await openCharge();
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    const rawBody = Buffer.from(JSON.stringify(paidChargeEvent(txid)));
    const copies = 6;
    const answers = await Promise.all(
      Array.from({ length: copies }, () => postSignedDelivery({ webhookId, secret, rawBody })),
    );
    expect(answers.map(({ response }) => response.status)).toEqual(Array(copies).fill(200));
    const rows = await db.webhookDelivery.findMany({ where: { webhookId }, orderBy: { receivedAt: "asc" } });
    expect(rows).toHaveLength(copies);
    const whole = rows.filter((row) => row.duplicateOfId === null);
    expect(whole).toHaveLength(1);
    expect(whole[0]!.rawBody.length).toBe(rawBody.length);
    const references = rows.filter((row) => row.duplicateOfId === whole[0]!.id);
    expect(references).toHaveLength(copies - 1);
    expect(references.every((row) => row.rawBody.length === 0 && Object.keys(row.headers as object).length === 0)).toBe(
      true,
    );
    expect(await db.webhookEffect.count({ where: { eventKey: { contains: txid } } })).toBe(1);
    expect(await chargeStatus(txid)).toBe("PAID");
  });
}
