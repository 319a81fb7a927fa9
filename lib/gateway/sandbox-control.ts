import "server-only";
import { z } from "zod";
import { apiPath, gatewayRequest } from "./http";
import { ZPixCharge } from "./schemas/pix-charge";

// The sandbox's control API (sandbox/README.md): the payer's side and the clock. Never present at the real gateway.

const ZSandboxClock = z.object({ now: z.string(), offsetMs: z.number() });

const ZDeliveryAttempt = z.object({
  deliveryId: z.string(),
  webhookId: z.string(),
  event: z.string(),
  attempt: z.number(),
  outcome: z.string(),
});

export function setSandboxClock(at: Date | null) {
  return gatewayRequest({
    operation: "sandbox.clock",
    method: "POST",
    path: "/sandbox/v1/clock",
    body: at ? { at: at.toISOString() } : { offsetMs: 0 },
    schema: ZSandboxClock,
    control: true,
  });
}

export function payPixChargeAtSandbox(txid: string, payer: { payerName: string; payerDocumentNumber: string }) {
  return gatewayRequest({
    operation: "sandbox.pix-charges.pay",
    method: "POST",
    path: apiPath`/sandbox/v1/pix-charges/${txid}/pay`,
    body: payer,
    schema: ZPixCharge,
    control: true,
  });
}

export function tamperPixChargeAtSandbox(txid: string, change: { amountCents?: number; status?: "ACTIVE" | "PAID" }) {
  return gatewayRequest({
    operation: "sandbox.pix-charges.tamper",
    method: "POST",
    path: apiPath`/sandbox/v1/pix-charges/${txid}/tamper`,
    body: change,
    schema: ZPixCharge,
    control: true,
  });
}

export function listSandboxDeliveryAttempts() {
  return gatewayRequest({
    operation: "sandbox.webhook-deliveries",
    method: "GET",
    path: "/sandbox/v1/webhook-deliveries",
    schema: z.array(ZDeliveryAttempt),
    control: true,
  });
}
