import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/webhooks/gateway/[webhookId]/route";
import { db } from "@/lib/db/client";
import { publishChange, subscribeChanges, type TChangeEvent } from "@/lib/events/bus";
import { createPixCharge } from "@/lib/gateway/pix-charges";
import { ZPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { maxBodyBytes, refusalRateLimit } from "./receive";
import { clearReceiverSecretCache } from "./receiver-secrets";
import { sealWebhookSecret } from "./secret-box";
import { signWebhookBody } from "./signature";
import { paidCharge, paidChargeEvent, signedHeaders } from "./testing/fixtures";
import { useReceiverSandbox } from "./testing/receiver-harness";

// The Standard Webhooks list of forged and malformed deliveries, against the receiver: none may change the mirror.

const secret = `whsec_${randomBytes(24).toString("hex")}`;
const retiredSecret = `whsec_${randomBytes(24).toString("hex")}`;
const ids = { current: randomUUID(), retired: randomUUID(), overlapOver: randomUUID(), deactivated: randomUUID() };
const noSecretId = randomUUID();
// A charge the payer paid at the gateway (made in beforeAll): the genuine event applies the gateway's copy.
let txid: string;
let genuineBody: Buffer;
let genuineSignature: string;

type TPost = { path?: string; headers: Record<string, string>; body: Uint8Array | ReadableStream<Uint8Array> };

async function post({ path = ids.current, headers, body }: TPost) {
  const response = await POST(
    new Request(`http://127.0.0.1/api/webhooks/gateway/${path}`, {
      method: "POST",
      headers,
      body,
      duplex: "half",
    } as RequestInit),
    { params: Promise.resolve({ webhookId: path }) },
  );
  return { status: response.status, body: (await response.json()) as { outcome?: string; error?: { code: string } } };
}

const signed = (overrides: Record<string, string | undefined> = {}, body = genuineBody, key = secret) =>
  signedHeaders(key, body, overrides);
const now = () => Math.floor(Date.now() / 1000);
// The sender's address as the server stamps it, and as a proxy would forward it.
const from = (ip: string) => ({ "x-peer-address": ip, "x-forwarded-for": ip });
const big = Buffer.alloc(maxBodyBytes + 1, 0x20);

function stream(bytes: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += 64 * 1024)
        controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + 64 * 1024)));
      controller.close();
    },
  });
}

type TCase = { name: string; status: number; request: () => TPost; setup?: () => Promise<unknown> };

const cases: TCase[] = [
  {
    name: "missing signature",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": undefined }), body: genuineBody }),
  },
  {
    name: "empty signature",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": "" }), body: genuineBody }),
  },
  {
    name: "odd-length signature (63)",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": genuineSignature.slice(1) }), body: genuineBody }),
  },
  {
    name: "signature one character too long (65)",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": `${genuineSignature}0` }), body: genuineBody }),
  },
  {
    name: "uppercase hex of the right signature",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": genuineSignature.toUpperCase() }), body: genuineBody }),
  },
  {
    name: "signature not hex",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": "z".repeat(64) }), body: genuineBody }),
  },
  {
    name: "all-zero signature",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": "0".repeat(64) }), body: genuineBody }),
  },
  {
    name: "Standard Webhooks form v1,<base64>",
    status: 401,
    request: () => ({
      headers: signed({ "x-webhook-signature": `v1,${Buffer.from(genuineSignature, "hex").toString("base64")}` }),
      body: genuineBody,
    }),
  },
  {
    name: "prefixed sha256=<hex>",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": `sha256=${genuineSignature}` }), body: genuineBody }),
  },
  {
    name: "wrong secret",
    status: 401,
    request: () => ({
      headers: signed({}, genuineBody, `whsec_${randomBytes(24).toString("hex")}`),
      body: genuineBody,
    }),
  },
  {
    name: "signature of another body",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-signature": signWebhookBody(secret, "{}") }), body: genuineBody }),
  },
  {
    name: "retired secret on the retired webhook's path",
    status: 410,
    request: () => ({ path: ids.retired, headers: signed({}, genuineBody, retiredSecret), body: genuineBody }),
  },
  {
    name: "secret of a webhook whose rotation overlap is over",
    status: 410,
    request: () => ({ path: ids.overlapOver, headers: signed({}, genuineBody, retiredSecret), body: genuineBody }),
  },
  {
    name: "secret of a deactivated webhook",
    status: 410,
    request: () => ({ path: ids.deactivated, headers: signed({}, genuineBody, retiredSecret), body: genuineBody }),
  },
  {
    name: "retired secret on the current webhook's path",
    status: 401,
    request: () => ({ headers: signed({}, genuineBody, retiredSecret), body: genuineBody }),
  },
  {
    name: "webhook whose secret the app does not hold",
    status: 401,
    request: () => ({ path: noSecretId, headers: signed(), body: genuineBody }),
  },
  {
    name: "unknown webhook id",
    status: 404,
    request: () => ({ path: randomUUID(), headers: signed(), body: genuineBody }),
  },
  {
    name: "path that is not a uuid",
    status: 404,
    request: () => ({ path: "..%2F..%2Fadmin", headers: signed(), body: genuineBody }),
  },
  {
    name: "stale timestamp (5 min 1 s old)",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-timestamp": String(now() - 301) }), body: genuineBody }),
  },
  {
    // Ten seconds past the limit, not one: a busy machine may take a second between signing and checking.
    name: "future timestamp (5 min 10 s ahead)",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-timestamp": String(now() + 310) }), body: genuineBody }),
  },
  {
    name: "missing timestamp",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-timestamp": undefined }), body: genuineBody }),
  },
  {
    name: "timestamp in milliseconds",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-timestamp": String(Date.now()) }), body: genuineBody }),
  },
  {
    name: "timestamp not a number",
    status: 401,
    request: () => ({ headers: signed({ "x-webhook-timestamp": "yesterday" }), body: genuineBody }),
  },
  {
    name: "truncated body",
    status: 401,
    request: () => ({ headers: signed(), body: genuineBody.subarray(0, genuineBody.length - 10) }),
  },
  {
    name: "body with a trailing newline",
    status: 401,
    request: () => ({ headers: signed(), body: Buffer.concat([genuineBody, Buffer.from("\n")]) }),
  },
  {
    name: "oversized body, declared",
    status: 413,
    request: () => ({ headers: signed({ "content-length": String(big.length) }, big), body: big }),
  },
  {
    name: "oversized body, streamed without a length",
    status: 413,
    request: () => ({ headers: signed({}, big), body: stream(big) }),
  },
  {
    name: "wrong content type (text/plain)",
    status: 415,
    request: () => ({ headers: signed({ "content-type": "text/plain" }), body: genuineBody }),
  },
  {
    name: "form content type",
    status: 415,
    request: () => ({ headers: signed({ "content-type": "application/x-www-form-urlencoded" }), body: genuineBody }),
  },
  {
    name: "no content type",
    status: 415,
    request: () => ({ headers: signed({ "content-type": undefined }), body: genuineBody }),
  },
  {
    name: "no delivery id",
    status: 400,
    request: () => ({ headers: signed({ "x-webhook-delivery": undefined }), body: genuineBody }),
  },
  {
    name: "duplicate of an applied delivery (same delivery id)",
    status: 200,
    setup: () => post({ headers: signed({ "x-webhook-delivery": "dup-1" }), body: genuineBody }),
    request: () => ({ headers: signed({ "x-webhook-delivery": "dup-1" }), body: genuineBody }),
  },
  {
    name: "duplicate of an applied delivery (new delivery id)",
    status: 200,
    setup: () => post({ headers: signed(), body: genuineBody }),
    request: () => ({ headers: signed(), body: genuineBody }),
  },
];

async function mirrorSnapshot() {
  return {
    charges: await db.pixCharge.findMany({ select: { txid: true, status: true, paidAmountCents: true, paidAt: true } }),
    refunds: await db.pixRefund.count(),
    links: await db.paymentLink.count(),
    effects: await db.webhookEffect.count(),
  };
}

async function createWebhook(id: string, key: string | null, state: Record<string, unknown> = {}) {
  await db.webhook.create({
    data: {
      id,
      url: `http://x/${id}`,
      events: ["pix_charge.paid"],
      secretCiphertext: key && sealWebhookSecret(key, id),
      ...state,
    },
  });
}

const accepted: string[] = [];

describe("webhook receiver: forged and malformed deliveries", () => {
  const sandbox = useReceiverSandbox();

  beforeAll(async () => {
    process.env.WEBHOOK_SECRET_KEY = randomBytes(32).toString("base64");
    clearReceiverSecretCache();
    const charge = await createPixCharge({ amount: 25.9, expiration: 3600 });
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    txid = charge.txid;
    genuineBody = Buffer.from(JSON.stringify(paidChargeEvent(txid)));
    genuineSignature = signWebhookBody(secret, genuineBody);
  });

  beforeEach(async () => {
    await db.webhookDelivery.deleteMany();
    await db.webhookEffect.deleteMany();
    await db.webhook.deleteMany();
    await db.pixCharge.deleteMany();
    await db.rateLimitBucket.deleteMany({
      where: { OR: [{ key: { startsWith: "webhook-refusal:" } }, { key: { startsWith: "webhook-repeat:" } }] },
    });
    const hourAgo = new Date(Date.now() - 3_600_000);
    await createWebhook(ids.current, secret);
    await createWebhook(ids.retired, retiredSecret, { isActive: false, retireAt: hourAgo, retiredAt: hourAgo });
    await createWebhook(ids.overlapOver, retiredSecret, { retireAt: new Date(Date.now() - 1000) });
    await createWebhook(ids.deactivated, retiredSecret, { isActive: false });
    await createWebhook(noSecretId, null);
    // The charge a forger wants to see PAID: mirrored, still ACTIVE.
    await upsertPixChargeFromGateway(ZPixCharge.parse(paidCharge(txid, { status: "ACTIVE", pix: null })));
  });

  it("applies the genuine delivery (the harness can see an accepted one)", async () => {
    expect(await post({ headers: signed(), body: genuineBody })).toMatchObject({
      status: 200,
      body: { outcome: "APPLIED" },
    });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({ status: "PAID" });
  });

  it.each(cases)("$name: answered $status, the mirror unchanged, no body or headers stored", async (item) => {
    await item.setup?.();
    const before = await mirrorSnapshot();
    const deliveriesBefore = await db.webhookDelivery.findMany({ select: { id: true } });
    const result = await post(item.request());
    const after = await mirrorSnapshot();
    if (result.body.outcome === "APPLIED" || JSON.stringify(after) !== JSON.stringify(before)) accepted.push(item.name);
    expect(result.status).toBe(item.status);
    expect(after).toEqual(before);
    const stored = await db.webhookDelivery.findMany({
      where: { id: { notIn: deliveriesBefore.map((row) => row.id) } },
    });
    expect(stored).toHaveLength(1);
    if (item.status === 200) {
      // A repeat of a stored body: a reference to its first delivery, without body or headers.
      expect(stored[0]).toMatchObject({ outcome: "DUPLICATE", duplicateOfId: expect.any(String) });
      expect(stored[0]!.rawBody.length).toBe(0);
      expect(stored[0]!.headers).toEqual({});
    } else {
      expect(stored[0]!.rawBody.length).toBe(0);
      expect(stored[0]!.headers).toEqual({});
      expect(stored[0]!.error).toEqual(expect.any(String));
    }
  });

  it(`accepted none of the ${cases.length} cases`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    console.info(`forged/malformed webhook cases tried: ${cases.length}, accepted: ${accepted.length}`);
    expect(accepted).toEqual([]);
  });

  it("a delivery signed with a retired secret changes nothing", async () => {
    const result = await post({
      path: ids.overlapOver,
      headers: signed({}, genuineBody, retiredSecret),
      body: genuineBody,
    });
    expect(result).toMatchObject({ status: 410, body: { error: { code: "REJECTED_SIGNATURE" } } });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({ status: "ACTIVE" });
    expect(await db.webhookEffect.count()).toBe(0);
  });

  it("leaves under 1 MB in the database for 1,000 forged posts", async () => {
    const tables = `'"WebhookDelivery"'::regclass, '"RateLimitBucket"'::regclass`;
    const size = async () =>
      Number(
        (
          await db.$queryRawUnsafe<{ bytes: bigint }[]>(
            `SELECT sum(pg_total_relation_size(t))::bigint AS bytes FROM unnest(ARRAY[${tables}]) AS t`,
          )
        )[0]!.bytes,
      );
    // Compacted first, so the rows below take new space and the growth is their whole cost.
    await db.$executeRawUnsafe(`VACUUM FULL "WebhookDelivery", "RateLimitBucket"`);
    const before = await size();
    const body = Buffer.from(JSON.stringify(paidChargeEvent(txid, { description: "x".repeat(10_000) })));
    const forged = signedHeaders("not-the-secret", body);
    const statuses: number[] = [];
    // Each from its own address, so the per-address limit does not hide the cost of storing refusals.
    for (let batch = 0; batch < 1000; batch += 20) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          post({
            headers: {
              ...forged,
              ...from(`10.0.${Math.floor((batch + index) / 250)}.${(batch + index) % 250}`),
            },
            body,
          }),
        ),
      );
      statuses.push(...results.map((result) => result.status));
    }
    // Compacted again: what stays is the rows and their index entries, not page splits of a concurrent burst.
    await db.$executeRawUnsafe(`VACUUM FULL "WebhookDelivery", "RateLimitBucket"`);
    const grown = (await size()) - before;
    console.info(`1,000 forged posts of ${body.length} bytes grew WebhookDelivery + RateLimitBucket by ${grown} bytes`);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect(grown).toBeLessThan(1_000_000);
    const [rows] = await db.$queryRaw<{ count: number; bytes: number }[]>`
      SELECT count(*)::int AS "count", coalesce(sum(pg_column_size(d.*)), 0)::int AS "bytes" FROM "WebhookDelivery" d`;
    console.info(`${rows!.count} refusal summaries stored, ${rows!.bytes} bytes of rows`);
    expect(rows!.bytes).toBeLessThan(1_000_000);
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({ status: "ACTIVE" });
  });

  it("answers 429 and stores nothing once an address has used up its refusals", async () => {
    const headers = { ...signed({ "x-webhook-signature": "0".repeat(64) }), ...from("192.0.2.7") };
    for (let index = 0; index < refusalRateLimit.limit; index += 1)
      expect((await post({ headers, body: genuineBody })).status).toBe(401);
    const count = await db.webhookDelivery.count();
    const limited = await post({ headers, body: genuineBody });
    expect(limited).toMatchObject({ status: 429, body: { error: { code: "RATE_LIMITED" } } });
    expect(await db.webhookDelivery.count()).toBe(count);
    // The genuine gateway is not held back by someone else's refusals, nor by its own past ones.
    expect((await post({ headers: { ...signed(), ...from("192.0.2.7") }, body: genuineBody })).status).toBe(200);
  });

  it("notifies open dashboards of a verified delivery but not of a refusal", async () => {
    const seen: string[] = [];
    const unsubscribe = subscribeChanges((event: TChangeEvent) => {
      if (event.type === "change" && event.change.kind === "webhook_delivery") seen.push(event.change.id);
    });
    try {
      // Listening once a probe comes through.
      const probe = randomUUID();
      await vi.waitFor(
        async () => {
          if (!seen.includes(probe)) await publishChange({ kind: "webhook_delivery", id: probe });
          expect(seen).toContain(probe);
        },
        { timeout: 10_000, interval: 200 },
      );
      await post({ headers: signed({ "x-webhook-signature": "0".repeat(64) }), body: genuineBody });
      const refusal = await db.webhookDelivery.findFirstOrThrow({ where: { outcome: "REJECTED_SIGNATURE" } });
      await post({ headers: signed(), body: genuineBody });
      const applied = await db.webhookDelivery.findFirstOrThrow({ where: { outcome: "APPLIED" } });
      // Notifications arrive in commit order: once the later one is here, the earlier one would have been.
      await expect.poll(() => seen).toContain(applied.id);
      expect(seen).not.toContain(refusal.id);
    } finally {
      unsubscribe();
    }
  });
});
