// Tests only: a sandbox, a fresh WEBHOOK_SECRET_KEY, and signed deliveries posted to the real route handler.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { POST } from "@/app/api/webhooks/gateway/[webhookId]/route";
import { db } from "@/lib/db/client";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { truncateAllTables } from "@/lib/testing/truncate-tables";
import type { TSandbox } from "@/sandbox/test/harness";
import { clearReceiverSecretCache } from "../receiver-secrets";
import { sealWebhookSecret } from "../secret-box";
import { signedHeaders } from "./fixtures";

export function useReceiverSandbox(): () => TSandbox {
  let sandbox: TSandbox | undefined;
  beforeAll(async () => {
    // Rows earlier files of this worker left were issued by other sandboxes: reconciliation would hold them.
    await truncateAllTables(db);
    process.env.WEBHOOK_SECRET_KEY = randomBytes(32).toString("base64");
    clearReceiverSecretCache();
    sandbox = await startGatewaySandbox();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  return () => sandbox!;
}

export type TSignedPost = {
  webhookId: string;
  secret: string;
  payload?: unknown;
  // The exact bytes to send, instead of the payload's JSON.
  rawBody?: Buffer;
  headers?: Record<string, string | undefined>;
};

export async function postSignedDelivery(post: TSignedPost): Promise<{ response: Response; deliveryId: string }> {
  const rawBody =
    post.rawBody ?? Buffer.from(typeof post.payload === "string" ? post.payload : JSON.stringify(post.payload));
  const headers = signedHeaders(post.secret, rawBody, post.headers);
  const response = await POST(
    new Request(`http://127.0.0.1/api/webhooks/gateway/${post.webhookId}`, {
      method: "POST",
      headers,
      body: new Uint8Array(rawBody),
    }),
    { params: Promise.resolve({ webhookId: post.webhookId }) },
  );
  return { response, deliveryId: headers["x-webhook-delivery"]! };
}

export async function storeReceiverWebhook(
  secret: string,
  data: { events?: string[]; replacesId?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await db.webhook.create({
    data: {
      id,
      url: `http://x/${id}`,
      events: data.events ?? ["pix_charge.paid"],
      secretCiphertext: sealWebhookSecret(secret, id),
      replacesId: data.replacesId,
    },
  });
  return id;
}
