// Tests only (PostgreSQL and PGlite): one Pix charge, created by the browser's server action and paid at the sandbox,
// is one trace from the action to the live update its webhook publishes.
import { randomBytes, randomUUID } from "node:crypto";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPaymentLinkAction } from "@/app/(dashboard)/links/actions";
import { createPixChargeAction, requestPixRefundAction } from "@/app/(dashboard)/pix/actions";
import { POST } from "@/app/api/webhooks/gateway/[webhookId]/route";
import { getSessionCookie } from "@/lib/auth/session-cookie";
import { db } from "@/lib/db/client";
import { confirmPaymentLink } from "@/lib/gateway/payment-links";
import { paymentLinkMethodCodes } from "@/lib/gateway/schemas/payment-link";
import { registerWebhook } from "@/lib/gateway/webhooks";
import { approvedCardRequest } from "@/lib/testing/card-requests";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { startRouteServer, type TRouteServer } from "@/lib/testing/route-server";
import type { TWebhookEvent } from "@/lib/webhooks/event-names";
import { clearReceiverSecretCache } from "@/lib/webhooks/receiver-secrets";
import { sealWebhookSecret } from "@/lib/webhooks/secret-box";
import type { TSandbox } from "@/sandbox/test/harness";
import { startTelemetry } from "../start";
import { cookieJar as cookies } from "./next-request-mock";

const wait = { timeout: 20_000, interval: 100 };

/** The calling file mocks next/headers and next/cache with ./next-request-mock. */
export function itTracesAPixPaymentEndToEnd(): void {
  const exporter = new InMemorySpanExporter();
  startTelemetry({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let sandbox: TSandbox;
  let server: TRouteServer;

  beforeAll(async () => {
    process.env.WEBHOOK_SECRET_KEY = randomBytes(32).toString("base64");
    clearReceiverSecretCache();
    // Settled by hand: a refund settled at once can be announced before its row (and traceparent) is committed.
    sandbox = await startGatewaySandbox({ env: { SANDBOX_REFUND_SETTLEMENT: "manual" } });
    server = await startRouteServer("/api/webhooks/gateway/[webhookId]", POST);
    const id = randomUUID();
    const url = `${server.url}/api/webhooks/gateway/${id}`;
    const events: TWebhookEvent[] = ["pix_charge.paid", "pix_refund.returned", "link_payment.paid"];
    await db.webhook.create({ data: { id, url, events } });
    const registered = await registerWebhook({ url, events });
    await db.webhook.update({
      where: { id },
      data: { upstreamId: registered.id, secretCiphertext: sealWebhookSecret(registered.secret, id) },
    });
    const user = await db.user.create({
      data: { email: `trace-${randomUUID()}@example.com`, name: "Trace", passwordHash: "x", roleId: "owner" },
    });
    const token = { sub: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
    cookies.set(getSessionCookie().name, await encode({ token, secret: process.env.AUTH_SECRET! }));
  }, 120_000);

  const appliedSpanOf = (resourceId: string) =>
    exporter
      .getFinishedSpans()
      .find(
        (span) => span.name === "webhook delivery applied" && span.attributes["webhook.resource_id"] === resourceId,
      );
  const expectAppliedInTraceOf = async (action: ReadableSpan, resourceId: string, resourceType: string) => {
    await expect.poll(() => appliedSpanOf(resourceId), wait).toBeDefined();
    const applied = appliedSpanOf(resourceId)!;
    expect(applied.spanContext().traceId).toBe(action.spanContext().traceId);
    expect(applied.parentSpanContext?.spanId).toBe(action.spanContext().spanId);
    expect(applied.attributes).toMatchObject({ "webhook.resource_type": resourceType });
  };
  const lastActionSpan = () => exporter.getFinishedSpans().findLast((span) => span.name === "server action")!;

  afterAll(async () => {
    cookies.clear();
    await server?.close();
    await sandbox?.stop();
  });

  it("the action, its gateway call, the webhook applied, its gateway read and the live update share one trace", async () => {
    exporter.reset();
    const created = await createPixChargeAction({
      idempotencyKey: randomUUID(),
      amountCents: 4321,
      expirationSeconds: 600,
    });
    if (!created.ok) throw new Error(`the action failed: ${created.error.code}`);
    const { txid } = created.data;
    const action = exporter.getFinishedSpans().find((span) => span.name === "server action")!;
    expect(action).toBeDefined();
    const traceId = action.spanContext().traceId;
    expect((await db.pixCharge.findUniqueOrThrow({ where: { txid } })).traceParent).toContain(traceId);

    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`, { payerName: "Fulana" });
    await expect
      .poll(async () => (await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status, wait)
      .toBe("PAID");
    await expect
      .poll(() => exporter.getFinishedSpans().some((span) => span.name === "webhook delivery applied"), wait)
      .toBe(true);

    const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    const idOf = (span: ReadableSpan) => span.spanContext().spanId;
    const childrenOf = (parent: ReadableSpan, name: string) =>
      spans.filter((span) => span.name === name && span.parentSpanContext?.spanId === idOf(parent));

    const [create] = childrenOf(action, "gateway POST /api/v1/pix-charges");
    expect(create?.attributes).toMatchObject({
      "http.request.method": "POST",
      "url.template": "/api/v1/pix-charges",
      "gateway.operation": "pix-charges.create",
      "gateway.attempt": 1,
      "http.response.status_code": 201,
      "gateway.transaction_id": expect.any(String),
    });
    const [applied] = childrenOf(action, "webhook delivery applied");
    expect(applied?.attributes).toMatchObject({ "webhook.resource_type": "pix_charge", "webhook.resource_id": txid });
    const [read] = childrenOf(applied!, "gateway GET /api/v1/pix-charges/{id}");
    expect(read?.attributes).toMatchObject({
      "gateway.operation": "pix-charges.get",
      "http.response.status_code": 200,
    });
    const queries = spans.filter((span) => span.name.startsWith("db ") && span.attributes["db.query.text"]);
    expect(queries.length).toBeGreaterThan(0);
    const published = childrenOf(applied!, "live update publish");
    expect(published.map((span) => span.attributes["change.kind"])).toContainEqual(
      expect.stringContaining("pix_charge"),
    );
    console.info(
      `spans per traced payment: ${spans.length} (${[...new Set(spans.map((span) => span.name))].join(", ")})`,
    );

    // Its refund is a trace of its own, which the refund's webhook joins as well.
    exporter.reset();
    const refunded = await requestPixRefundAction({ idempotencyKey: randomUUID(), txid, amountCents: 1000 });
    if (!refunded.ok || refunded.data.status !== "refunded") throw new Error("the refund was not sent");
    const { pixRefundId } = refunded.data;
    const refundAction = lastActionSpan();
    const refundTraceId = refundAction.spanContext().traceId;
    expect((await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId } })).traceParent).toContain(refundTraceId);
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-refunds/${pixRefundId}/settle`, {});
    await expectAppliedInTraceOf(refundAction, pixRefundId, "pix_refund");

    // So is a payment link's, paid on the hosted page long after.
    exporter.reset();
    const link = await createPaymentLinkAction({
      idempotencyKey: randomUUID(),
      payerName: "Fulana de Tal",
      payerDocument: "52998224725",
      amountCents: 2500,
      installments: 1,
      acceptedMethodCodes: [paymentLinkMethodCodes.CREDIT_CARD],
      expirationDays: 5,
    });
    if (!link.ok) throw new Error(`the link action failed: ${link.error.code}`);
    const { linkPaymentUuid } = link.data;
    const linkAction = lastActionSpan();
    expect((await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } })).traceParent).toContain(
      linkAction.spanContext().traceId,
    );
    await confirmPaymentLink(linkPaymentUuid, { ...approvedCardRequest(25), codigoSeguranca: "123" });
    await expectAppliedInTraceOf(linkAction, linkPaymentUuid, "payment_link");
  });
}
