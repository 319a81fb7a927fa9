import { readFileSync } from "node:fs";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { flushGatewayCallMinutes } from "@/lib/health/gateway-call-minutes";
import { getMetricsRegistry } from "@/lib/telemetry/metrics";
import { startGatewaySandbox, useGateway } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { checkGatewayConnection, getGatewayCertificateReport } from "./certificate";
import {
  GatewayHttpError,
  GatewayRefusedError,
  GatewaySchemaError,
  GatewayTimeoutError,
  GatewayUnavailableError,
  toAppError,
} from "./errors";
import { resetGatewayClient } from "./http";
import { createPayment } from "./payments";
import { cancelPixCharge, createPixCharge, getPixCharge, listPixCharges } from "./pix-charges";
import { getPixRefund, listPixRefunds, requestPixRefund } from "./pix-refunds";
import { listWebhooks, registerWebhook } from "./webhooks";

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

const wholePeriod = { initialDate: "2000-01-01T00:00:00Z", endDate: "2100-01-01T00:00:00Z" };
const refusedCard = {
  identificacaoPagamento: "order-refused",
  numeroParcelas: 1,
  tipoParcelamento: "3",
  bandeiraCartao: "1",
  valor: 10,
  dataExpiracao: "12/35",
} as const;

describe("gateway client against the sandbox over mTLS", () => {
  let sandbox: TSandbox;

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await resetGatewayClient();
    await sandbox?.stop();
  });

  it("creates, reads, lists and cancels a Pix charge with parsed, typed answers", async () => {
    const created = await createPixCharge({
      amount: 25.9,
      expiration: 600,
      debtor: { name: "Fulano de Tal", naturalPersonIdentification: "52998224725" },
      userReference: "order-1",
    });
    expect(created).toMatchObject({
      amount: 25.9,
      status: "ACTIVE",
      debtor: { naturalPersonIdentification: "52998224725" },
      userReference: "order-1",
      description: null,
      pix: null,
      devolutions: null,
    });
    expect(created.qrCodeBase64).toEqual(expect.any(String));

    expect((await getPixCharge(created.txid)).txid).toBe(created.txid);
    const page = await listPixCharges({ ...wholePeriod, userReference: "order-1", sort: "creationDate,desc" });
    expect(page.content.map((item) => item.txid)).toContain(created.txid);

    const cancelled = await cancelPixCharge(created.txid);
    expect(cancelled).toMatchObject({ status: "Cancelada", qrCodeBase64: null });
  });

  it("sends an x-transaction-id on every call: the 7.1 error body echoes ours", async () => {
    const error = await caught(getPixCharge("does-not-exist"));
    expect(error).toBeInstanceOf(GatewayHttpError);
    const httpError = error as GatewayHttpError;
    expect(httpError.status).toBe(404);
    expect(httpError.body).toMatchObject({
      shape: "pix",
      errorCode: "NAO_ENCONTRADO",
      xTransactionId: httpError.transactionId,
    });
    expect(toAppError(error).code).toBe("NOT_FOUND");
  });

  it("maps a refund 409 (charge not paid) and 422 (above the remaining value) from the 7.1 body", async () => {
    const unpaid = await createPixCharge({ amount: 10 });
    const conflict = await caught(requestPixRefund({ txid: unpaid.txid, amount: 1 }));
    expect(conflict).toMatchObject({ status: 409, body: { shape: "pix", errorCode: "ESTADO_INVALIDO" } });
    const conflictAppError = toAppError(conflict);
    expect(conflictAppError).toMatchObject({
      code: "CONFLICT",
      status: 409,
      messageKey: "errors.gateway.said",
      params: { reason: (conflict as GatewayHttpError).upstreamMessage },
    });

    const paid = await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${unpaid.txid}/pay`);
    expect(paid.status).toBe(200);
    const refund = await requestPixRefund({ txid: unpaid.txid, amount: 4, description: "partial" });
    expect(refund).toMatchObject({ pixChargeTxid: unpaid.txid, amount: 4, description: "partial" });
    expect((await getPixRefund(refund.pixRefundId)).status.code).toBe(3);
    expect((await listPixRefunds({ pixChargeTxid: unpaid.txid })).totalElements).toBe(1);

    const tooMuch = await caught(requestPixRefund({ txid: unpaid.txid, amount: 6.01 }));
    expect(tooMuch).toMatchObject({ status: 422, body: { shape: "pix", errorCode: "VALOR_EXCEDIDO" } });
    expect(toAppError(tooMuch)).toMatchObject({ code: "UNPROCESSABLE", status: 422 });
  });

  it("maps a 400 with the 7.2 ErrorResponse to VALIDATION_FAILED with field errors", async () => {
    const error = await caught(createPayment({ ...refusedCard, numeroCartao: "4111111111111112" }));
    expect(error).toMatchObject({ status: 400, body: { shape: "payment", code: "VALIDATION_ERROR" } });
    expect((error as GatewayHttpError).body).toMatchObject({ traceId: (error as GatewayHttpError).transactionId });
    const appError = toAppError(error);
    expect(appError.code).toBe("VALIDATION_FAILED");
    expect(appError.fieldErrors).toHaveProperty("numeroCartao");
  });

  it("treats a 201 with codigo other than 0 as a refusal", async () => {
    const error = await caught(createPayment({ ...refusedCard, numeroCartao: "4000000000000002" }));
    expect(error).toBeInstanceOf(GatewayRefusedError);
    expect(error).toMatchObject({
      codigo: "05",
      mensagem: "Transacao negada",
      merchantAdviceCode: "03",
      response: { status: "NEG" },
    });
    expect(toAppError(error).code).toBe("UNPROCESSABLE");
  });

  it("refuses to send a body that does not match its schema", async () => {
    const error = await caught(createPixCharge({ amount: 0 }));
    expect(error).toMatchObject({ direction: "request" });
    expect(toAppError(error)).toMatchObject({ code: "VALIDATION_FAILED", fieldErrors: { amount: expect.any(String) } });
  });

  it("registers and lists webhooks, and reports the certificate and a live connection check", async () => {
    const registered = await registerWebhook({ url: "https://example.test/hooks", events: ["pix_charge.paid"] });
    expect(registered.secret).toMatch(/^whsec_/);
    expect((await listWebhooks()).map((webhook) => webhook.id)).toContain(registered.id);

    const report = getGatewayCertificateReport();
    expect(report).toMatchObject({
      ok: true,
      baseUrl: sandbox.baseUrl,
      isKeyMatching: true,
      certificate: { subject: expect.stringContaining("CN=merchant"), expiryState: "valid" },
    });
    expect(JSON.stringify(report)).not.toContain("PRIVATE KEY");
    expect(await checkGatewayConnection()).toMatchObject({ ok: true, latencyMs: expect.any(Number) });
  });
});

describe("gateway client when the upstream misbehaves", () => {
  const certsDir = path.resolve(".data/test-certs");

  afterAll(() => resetGatewayClient());

  it("turns a malformed success body into a GatewaySchemaError", async () => {
    // The only fake upstream: an HTTPS server with the test certificates that answers a charge without txid.
    const server = https.createServer(
      {
        cert: readFileSync(path.join(certsDir, "sandbox.pem")),
        key: readFileSync(path.join(certsDir, "sandbox-key.pem")),
        ca: readFileSync(path.join(certsDir, "ca.pem")),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (_req, res) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ amount: "12,00", status: "ACTIVE" })),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await useGateway(`https://127.0.0.1:${(server.address() as net.AddressInfo).port}`, certsDir);
      await flushGatewayCallMinutes();
      await db.gatewayCallMinute.deleteMany();
      const invalidBodies = async () =>
        (await getMetricsRegistry().getMetricsAsJSON())
          .find((metric) => metric.name === "payments_gateway_call_duration_seconds")
          ?.values.find(
            (value) =>
              (value as { metricName?: string }).metricName?.endsWith("_count") &&
              value.labels.outcome === "invalid_body",
          )?.value ?? 0;
      const invalidBefore = await invalidBodies();
      const error = await caught(getPixCharge("abc"));
      await flushGatewayCallMinutes();
      expect(await db.gatewayCallMinute.findMany({ select: { operation: true, calls: true, failures: true } })).toEqual(
        [{ operation: "pix-charges.get", calls: 1, failures: 1 }],
      );
      expect(await invalidBodies()).toBe(invalidBefore + 1);
      expect(error).toBeInstanceOf(GatewaySchemaError);
      expect(error).toMatchObject({ direction: "response", rawBody: expect.stringContaining("12,00") });
      expect((error as GatewaySchemaError).issues.map((issue) => issue.path.join("."))).toEqual(
        expect.arrayContaining(["txid", "amount"]),
      );
      expect(toAppError(error).code).toBe("UPSTREAM_REJECTED");
    } finally {
      await resetGatewayClient();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("retries a GET on connection errors, never a POST", async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await useGateway(`https://127.0.0.1:${(server.address() as net.AddressInfo).port}`, certsDir, "merchant", {
        GATEWAY_GET_RETRIES: "2",
      });
      const getError = await caught(getPixCharge("abc"));
      expect(getError).toBeInstanceOf(GatewayUnavailableError);
      expect((getError as GatewayUnavailableError).attempts).toBe(3);
      expect(connections).toBe(3);
      expect(toAppError(getError).code).toBe("UPSTREAM_UNAVAILABLE");

      connections = 0;
      const postError = await caught(createPixCharge({ amount: 1 }));
      expect(postError).toMatchObject({ attempts: 1 });
      expect(connections).toBe(1);
    } finally {
      await resetGatewayClient();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("times out on a slow gateway", async () => {
    const slow = await startGatewaySandbox({
      env: { SANDBOX_LATENCY_MS: "10000" },
      gatewayEnv: { GATEWAY_RESPONSE_TIMEOUT_MS: "300" },
    });
    try {
      const startedAt = Date.now();
      const error = await caught(listWebhooks());
      expect(error).toBeInstanceOf(GatewayTimeoutError);
      expect(error).toMatchObject({ phase: "response", timeoutMs: 300 });
      // Far below the 10 s latency: the client gave up at its own timeout, however busy the machine.
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      expect(toAppError(error).code).toBe("UPSTREAM_TIMEOUT");
    } finally {
      await resetGatewayClient();
      await slow.stop();
    }
  });
});
