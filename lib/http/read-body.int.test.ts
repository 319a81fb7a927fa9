import { randomBytes, randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as nextAuthRoute } from "@/app/api/auth/[...nextauth]/route";
import { POST as webhookRoute } from "@/app/api/webhooks/gateway/[webhookId]/route";
import { POST as activateRoute } from "@/app/v1/sellers/activate/route";
import { POST as reportRoute } from "@/app/v1/transactions/route";
import { db } from "@/lib/db/client";
import { generatePosApiKey, hashPosApiKey } from "@/lib/pos/api-key-format";
import { posRateLimiter } from "@/lib/pos/rate-limit";
import { bodyLimits, readCappedBody, withCappedBody } from "./read-body";

// Every route handler that reads a body, called in-process with a 128 MiB body generated lazily: each must answer
// 413 having pulled no more than its cap and a few chunks of the stream.

const attackBytes = 128 * 1024 * 1024;
const chunkBytes = 64 * 1024;
// What a reader may pull past its cap: the chunk that crossed it plus the stream's read-ahead.
const slackBytes = 4 * chunkBytes;

function lazyBody(totalBytes = attackBytes) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      const size = Math.min(chunkBytes, totalBytes - pulled);
      pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  return { stream, pulled: () => pulled };
}

const init = (body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  ({ method: "POST", headers, body, duplex: "half" }) as RequestInit & { duplex: "half" };
const nextInit = (body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  init(body, headers) as ConstructorParameters<typeof NextRequest>[1];

async function errorCode(response: Response): Promise<string | undefined> {
  const body = (await response.json()) as { error?: { code: string }; code?: number };
  return body.error?.code;
}

describe("readCappedBody", () => {
  it("stops a chunked body (no Content-Length) at the cap", async () => {
    const body = lazyBody();
    const result = await readCappedBody(new Request("http://127.0.0.1/x", init(body.stream, {})), 1024 * 1024);
    expect(result.kind).toBe("too_large");
    expect(body.pulled()).toBeLessThanOrEqual(1024 * 1024 + slackBytes);
  });

  it("refuses a declared length over the cap without reading", async () => {
    const body = lazyBody();
    const request = new Request("http://127.0.0.1/x", init(body.stream, { "content-length": String(attackBytes) }));
    expect(await readCappedBody(request, 1024)).toEqual({ kind: "too_large", bytes: attackBytes });
    expect(body.pulled()).toBeLessThanOrEqual(slackBytes);
  });

  it("returns a body within the cap byte for byte", async () => {
    const bytes = randomBytes(10_000);
    const result = await readCappedBody(new Request("http://127.0.0.1/x", { method: "POST", body: bytes }), 10_000);
    expect(result).toEqual({ kind: "ok", bytes });
  });
});

describe("the sign-in callback (next-auth)", () => {
  const url = "http://127.0.0.1:3000/api/auth/callback/credentials";
  const context = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) };

  it("answers 413 to an unauthenticated 128 MiB chunked post, reading no more than the cap", async () => {
    const body = lazyBody();
    const response = await nextAuthRoute(
      new NextRequest(url, nextInit(body.stream, { "content-type": "application/x-www-form-urlencoded" })),
      context,
    );
    expect(response.status).toBe(413);
    expect(await errorCode(response)).toBe("PAYLOAD_TOO_LARGE");
    expect(body.pulled()).toBeLessThanOrEqual(bodyLimits.signIn + slackBytes);
  });

  it("answers 413 to a declared 128 MiB post without reading it", async () => {
    const body = lazyBody();
    const headers = { "content-type": "application/x-www-form-urlencoded", "content-length": String(attackBytes) };
    const response = await nextAuthRoute(new NextRequest(url, nextInit(body.stream, headers)), context);
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(slackBytes);
  });

  it("hands next-auth a request with the same form, URL and headers", async () => {
    const form = "csrfToken=abc&email=a%40b.c&password=x&json=true";
    const original = new NextRequest(`${url}?x=1`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: "a=b" },
      body: form,
    });
    const rebuilt = await withCappedBody(original, bodyLimits.signIn);
    expect(rebuilt).toBeInstanceOf(NextRequest);
    const request = rebuilt as NextRequest;
    expect(request.nextUrl.searchParams.get("x")).toBe("1");
    expect(request.method).toBe("POST");
    expect(request.headers.get("cookie")).toBe("a=b");
    expect(await request.text()).toBe(form);
  });
});

describe("the webhook receiver", () => {
  it("answers 413 to a 128 MiB chunked delivery, reading no more than 1 MiB", async () => {
    const body = lazyBody();
    const webhookId = randomUUID();
    const response = await webhookRoute(
      new Request(`http://127.0.0.1/api/webhooks/gateway/${webhookId}`, {
        ...init(body.stream, { "content-type": "application/json" }),
      }),
      { params: Promise.resolve({ webhookId }) },
    );
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(bodyLimits.webhookDelivery + slackBytes);
  });
});

describe("the POS backend", () => {
  let apiKey: string;

  beforeAll(async () => {
    const { key, prefix } = generatePosApiKey();
    await db.posApiKey.create({
      data: { id: randomUUID(), tenantId: randomUUID(), name: "body caps", prefix, keyHash: hashPosApiKey(key) },
    });
    apiKey = key;
  });

  beforeEach(() => posRateLimiter.reset());

  const headers = () => ({ authorization: `Bearer ${apiKey}`, "content-type": "application/json" });

  it("answers 413 to a 128 MiB chunked sale report, reading no more than 16 KiB", async () => {
    const body = lazyBody();
    const response = await reportRoute(new Request("http://127.0.0.1/v1/transactions", init(body.stream, headers())));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 413 });
    expect(body.pulled()).toBeLessThanOrEqual(bodyLimits.pos + slackBytes);
  });

  it("answers 413 to a 128 MiB chunked activation, reading no more than 16 KiB", async () => {
    const body = lazyBody();
    const response = await activateRoute(
      new Request("http://127.0.0.1/v1/sellers/activate", init(body.stream, headers())),
    );
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(bodyLimits.pos + slackBytes);
  });

  it("still reads a JSON body within the cap (422 names the bad field, not 413)", async () => {
    const body = lazyBody(0);
    const response = await reportRoute(new Request("http://127.0.0.1/v1/transactions", init(body.stream, headers())));
    expect(response.status).toBe(400);
    const small = new Request("http://127.0.0.1/v1/transactions", {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({ posId: 1 }),
    });
    expect((await reportRoute(small)).status).toBe(422);
  });
});
