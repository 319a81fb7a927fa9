import { z } from "zod";
import { defineEnvConcern, EnvValidationError, parseEnvConcern } from "./define-env";

const hexKey = /^[0-9a-fA-F]{64}$/;

// 32 bytes, as 64 hex characters or as base64 (what `openssl rand -base64 32` prints).
function decodeKey(value: string): Buffer | null {
  if (hexKey.test(value)) return Buffer.from(value, "hex");
  const bytes = Buffer.from(value, "base64");
  return bytes.length === 32 && bytes.toString("base64") === value ? bytes : null;
}

export const webhooksEnvConcern = defineEnvConcern("webhooks", {
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((value) => decodeKey(value) !== null, "must be 32 bytes as base64 or 64 hex characters")
    .describe(
      "Encrypts the webhook signing secrets stored in the database (AES-256-GCM): generate one with `openssl rand -base64 32`, keep it secret, never reuse AUTH_SECRET. Losing it means registering the webhooks again.",
    ),
  WEBHOOK_RECEIVER_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .optional()
    .describe(
      "URL at which the gateway reaches this app (without /api/...), e.g. https://dashboard.example.com; defaults to APP_URL.",
    ),
});

export type TWebhooksEnv = { secretKey: Buffer; receiverBaseUrl: string | undefined };

// Compared with AUTH_SECRET: one leaked secret must not open both the sessions and the webhook secrets.
export function getWebhooksEnv(env: Record<string, string | undefined> = process.env): TWebhooksEnv {
  const parsed = parseEnvConcern(webhooksEnvConcern, env);
  if (parsed.WEBHOOK_SECRET_KEY === env.AUTH_SECRET?.trim()) {
    throw new EnvValidationError([
      {
        variable: "WEBHOOK_SECRET_KEY",
        problem: "is the same as AUTH_SECRET",
        fix: "Generate a separate key with `openssl rand -base64 32`.",
      },
    ]);
  }
  return { secretKey: decodeKey(parsed.WEBHOOK_SECRET_KEY)!, receiverBaseUrl: parsed.WEBHOOK_RECEIVER_BASE_URL };
}
