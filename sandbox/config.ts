import path from "node:path";
import { z } from "zod";

// Every knob of the sandbox, read once from the environment (documented in sandbox/README.md).
const ZSandboxEnv = z.object({
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(8443),
  SANDBOX_HOST: z.string().min(1).default("127.0.0.1"),
  SANDBOX_DATA_DIR: z.string().min(1).default(".data/sandbox"),
  SANDBOX_CERTS_DIR: z.string().min(1).default(".data/certs"),
  SANDBOX_RETRY_SCALE: z.coerce.number().positive().default(1),
  SANDBOX_REFUND_SETTLEMENT: z.enum(["immediate", "manual"]).default("immediate"),
  SANDBOX_LINK_BASE_URL: z.url().default("http://127.0.0.1:3000/pay/"),
  SANDBOX_MERCHANT_NAME: z.string().min(1).default("SANDBOX MERCHANT"),
  SANDBOX_MERCHANT_CITY: z.string().min(1).default("SAO PAULO"),
  SANDBOX_PIX_PAYLOAD_HOST: z.string().min(1).optional(),
  SANDBOX_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // X-Webhook-Delivery: a new id per attempt (spec 6.2), or one id kept across a delivery's retries.
  SANDBOX_WEBHOOK_DELIVERY_ID: z.enum(["per-attempt", "per-delivery"]).default("per-attempt"),
  SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).default(0),
  // Testing aid: shifts the sandbox clock, e.g. to make existing charges older than 90 days.
  SANDBOX_CLOCK_OFFSET_MS: z.coerce.number().int().default(0),
  // Testing aid: the usual reading of tipoParcelamento (3 and 7 take one installment, at most 12), which the spec
  // does not state; off by default.
  SANDBOX_STRICT_INSTALLMENTS: z.enum(["0", "1"], { error: "0 or 1" }).default("0"),
  // Testing aid: the spec promises a refund's userReference only "on read" (4.5); `omit` leaves it out of list items.
  SANDBOX_REFUND_LIST_USER_REFERENCE: z.enum(["include", "omit"]).default("include"),
});

export type TSandboxConfig = {
  port: number;
  host: string;
  dataDir: string;
  certsDir: string;
  retryScale: number;
  refundSettlement: "immediate" | "manual";
  linkBaseUrl: string;
  merchantName: string;
  merchantCity: string;
  pixPayloadHost: string;
  webhookTimeoutMs: number;
  webhookDeliveryId: "per-attempt" | "per-delivery";
  latencyMs: number;
  clockOffsetMs: number;
  strictInstallments: boolean;
  refundListUserReference: "include" | "omit";
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): TSandboxConfig {
  // Empty variables count as unset, so `SANDBOX_PORT= npm run sandbox` keeps the default.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = ZSandboxEnv.safeParse(present);
  if (!parsed.success) {
    throw new Error(`Invalid sandbox configuration: ${z.prettifyError(parsed.error)}`);
  }
  const e = parsed.data;
  return {
    port: e.SANDBOX_PORT,
    host: e.SANDBOX_HOST,
    dataDir: path.resolve(e.SANDBOX_DATA_DIR),
    certsDir: path.resolve(e.SANDBOX_CERTS_DIR),
    retryScale: e.SANDBOX_RETRY_SCALE,
    refundSettlement: e.SANDBOX_REFUND_SETTLEMENT,
    linkBaseUrl: e.SANDBOX_LINK_BASE_URL,
    merchantName: e.SANDBOX_MERCHANT_NAME,
    merchantCity: e.SANDBOX_MERCHANT_CITY,
    pixPayloadHost: e.SANDBOX_PIX_PAYLOAD_HOST ?? `127.0.0.1:${e.SANDBOX_PORT}`,
    webhookTimeoutMs: e.SANDBOX_WEBHOOK_TIMEOUT_MS,
    webhookDeliveryId: e.SANDBOX_WEBHOOK_DELIVERY_ID,
    latencyMs: e.SANDBOX_LATENCY_MS,
    clockOffsetMs: e.SANDBOX_CLOCK_OFFSET_MS,
    strictInstallments: e.SANDBOX_STRICT_INSTALLMENTS === "1",
    refundListUserReference: e.SANDBOX_REFUND_LIST_USER_REFERENCE,
  };
}

let current: TSandboxConfig | undefined;

/** The configuration of this process; modules read it at call time, main.ts sets it first. */
export function config(): TSandboxConfig {
  current ??= loadConfig();
  return current;
}

export function setConfig(next: TSandboxConfig): void {
  current = next;
}
