import { z } from "zod";
import { clockOffsetMs, formatDateTime, now, parseDateTime, setClockOffset } from "../clock";
import { parseInput } from "../http/errors";
import { requiredText } from "../http/fields";
import type { Router } from "../http/router";
import { chargeStatuses, expireCharge, forgetCharge, payCharge, tamperCharge, toApiCharge } from "../pix/charges";
import { failRefund, settleRefund } from "../pix/refunds";
import { toApiRefund } from "../pix/refunds-store";
import { ZPayChargeControl } from "../pix/schemas";
import { listDeliveryAttempts } from "../webhooks/attempts";
import { clearFaults, faultsOf, setFaults, toApiFaults, ZFaults } from "./faults";

// Simulates the payer's side. Fixed payer: a valid CPF so dashboards can format and validate it.
const defaultPayer = { payerName: "PAGADOR SANDBOX", payerDocumentNumber: "52998224725" };

const ZSetClock = z.union([
  z.strictObject({ at: z.string().refine((value) => Number.isFinite(parseDateTime(value)), "data-hora ISO 8601") }),
  z.strictObject({ offsetMs: z.number().int() }),
]);

const clockBody = () => ({ now: formatDateTime(now()), offsetMs: clockOffsetMs() });
const ZTamperCharge = z
  .strictObject({
    amountCents: z.number().int().positive().optional(),
    status: z.enum(chargeStatuses).optional(),
  })
  .refine((change) => change.amountCents !== undefined || change.status !== undefined, "amountCents ou status");

const ZFailRefund = z.strictObject({ statusReason: requiredText(500).optional() }).optional();

/** Control API (sandbox only, same mTLS, 7.1 error body) for the Pix and webhook areas. */
export function registerControlRoutes(router: Router): void {
  // POST /sandbox/v1/pix-charges/{txid}/pay – the payer pays: ACTIVE → PAID, event pix_charge.paid.
  router.add("POST", "/sandbox/v1/pix-charges/:txid/pay", (ctx) => {
    const payer = parseInput(ZPayChargeControl, ctx.body);
    const paid = payCharge(ctx.clientId, ctx.params.txid ?? "", { ...defaultPayer, ...payer });
    return { status: 200, body: toApiCharge(ctx.clientId, paid) };
  });

  // POST /sandbox/v1/pix-charges/{txid}/expire – ends an ACTIVE charge's lifetime now.
  router.add("POST", "/sandbox/v1/pix-charges/:txid/expire", (ctx) => ({
    status: 200,
    body: toApiCharge(ctx.clientId, expireCharge(ctx.clientId, ctx.params.txid ?? "")),
  }));

  // POST /sandbox/v1/pix-refunds/{id}/settle – PROCESSING → RETURNED, event pix_refund.returned.
  router.add("POST", "/sandbox/v1/pix-refunds/:id/settle", (ctx) => ({
    status: 200,
    body: toApiRefund(settleRefund(ctx.clientId, ctx.params.id ?? "")),
  }));

  // POST /sandbox/v1/pix-refunds/{id}/fail – PROCESSING → NOT FINISHED; the amount is refundable again.
  router.add("POST", "/sandbox/v1/pix-refunds/:id/fail", (ctx) => {
    const input = parseInput(ZFailRefund, ctx.body);
    const failed = failRefund(
      ctx.clientId,
      ctx.params.id ?? "",
      input?.statusReason ?? "Devolução recusada pelo banco do pagador (simulada)",
    );
    return { status: 200, body: toApiRefund(failed) };
  });

  // GET /sandbox/v1/clock – the sandbox's time and its offset from the real clock.
  router.add("GET", "/sandbox/v1/clock", () => ({ status: 200, body: clockBody() }));

  // POST /sandbox/v1/clock – moves the sandbox clock (whole process, every client) to `at` or by `offsetMs`.
  router.add("POST", "/sandbox/v1/clock", (ctx) => {
    const input = parseInput(ZSetClock, ctx.body);
    setClockOffset("at" in input ? parseDateTime(input.at) - Date.now() : input.offsetMs);
    return { status: 200, body: clockBody() };
  });

  // DELETE /sandbox/v1/clock – back to SANDBOX_CLOCK_OFFSET_MS.
  router.add("DELETE", "/sandbox/v1/clock", () => {
    setClockOffset(null);
    return { status: 200, body: clockBody() };
  });
  // POST /sandbox/v1/pix-charges/{txid}/tamper – changes the amount or status with no event: drift for the reconciler.
  router.add("POST", "/sandbox/v1/pix-charges/:txid/tamper", (ctx) => ({
    status: 200,
    body: toApiCharge(
      ctx.clientId,
      tamperCharge(ctx.clientId, ctx.params.txid ?? "", parseInput(ZTamperCharge, ctx.body)),
    ),
  }));

  // DELETE /sandbox/v1/pix-charges/{txid} – the gateway forgets the charge: the app's mirror alone still has it.
  router.add("DELETE", "/sandbox/v1/pix-charges/:txid", (ctx) => {
    forgetCharge(ctx.clientId, ctx.params.txid ?? "");
    return { status: 204 };
  });

  // GET /sandbox/v1/webhook-deliveries – every delivery attempt of the client, oldest first.
  router.add("GET", "/sandbox/v1/webhook-deliveries", (ctx) => ({
    status: 200,
    body: listDeliveryAttempts(ctx.clientId, { webhookId: ctx.query.get("webhookId"), event: ctx.query.get("event") }),
  }));

  // GET /sandbox/v1/faults – the faults injected into this client's /api/v1 answers.
  router.add("GET", "/sandbox/v1/faults", (ctx) => ({ status: 200, body: toApiFaults(faultsOf(ctx.clientId)) }));

  // PUT /sandbox/v1/faults – slow and/or failing /api/v1 answers for this client, until DELETE or `until`.
  router.add("PUT", "/sandbox/v1/faults", (ctx) => ({
    status: 200,
    body: toApiFaults(setFaults(ctx.clientId, parseInput(ZFaults, ctx.body))),
  }));

  // DELETE /sandbox/v1/faults – healthy answers again.
  router.add("DELETE", "/sandbox/v1/faults", (ctx) => {
    clearFaults(ctx.clientId);
    return { status: 204 };
  });
}
