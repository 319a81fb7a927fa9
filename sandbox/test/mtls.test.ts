import { readFileSync } from "node:fs";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createForeignClientPair } from "../certs/certs";
import { createCharge, createPaidCharge, expectPixError, wholeRange } from "./fixtures";
import { startSandbox, type TSandbox } from "./harness";

let sandbox: TSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ clients: ["merchant-3"] });
});
afterAll(() => sandbox?.stop());

/** Opens a TLS connection and sends a request; resolves with the first response bytes or rejects. */
function rawRequest(options: tls.ConnectionOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: "127.0.0.1",
      port: sandbox.port,
      ca: readFileSync(path.join(sandbox.certsDir, "ca.pem")),
      ...options,
    });
    let data = "";
    socket.on("secureConnect", () =>
      socket.write("GET /api/v1/webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
    );
    socket.on("data", (chunk) => {
      data += chunk.toString();
    });
    socket.on("error", reject);
    socket.on("close", () =>
      data.startsWith("HTTP/1.1")
        ? resolve(data)
        : reject(new Error(`connection closed without an HTTP answer: ${data}`)),
    );
  });
}

describe("mutual TLS (spec 5)", () => {
  it("answers a client with a certificate signed by the sandbox CA", async () => {
    const cert = readFileSync(path.join(sandbox.certsDir, "merchant.pem"));
    const key = readFileSync(path.join(sandbox.certsDir, "merchant-key.pem"));
    await expect(rawRequest({ cert, key })).resolves.toMatch(/^HTTP\/1\.1 200/);
  });

  it("refuses a client without a certificate at the handshake", async () => {
    await expect(rawRequest({})).rejects.toThrow(/certificate|alert|socket|ECONNRESET|closed/i);
  });

  it("refuses a client certificate issued by another CA at the handshake", async () => {
    const foreign = createForeignClientPair("merchant");
    await expect(rawRequest({ cert: foreign.cert, key: foreign.key })).rejects.toThrow(
      /certificate|alert|unknown ca|ECONNRESET|closed/i,
    );
  });

  it("accepts a client issued later with `certs --client NAME`", async () => {
    const response = await sandbox.request("merchant-3", "GET", "/api/v1/webhooks");
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});

describe("client isolation (spec 5.4)", () => {
  it("never shows one merchant's resources to another", async () => {
    const charge = await createCharge(sandbox, "merchant", { userReference: "isolation" });
    const paid = await createPaidCharge(sandbox, "merchant");
    const refund = await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid: paid.txid, amount: 1 });
    expect(refund.status).toBe(201);
    const webhook = await sandbox.request("merchant", "POST", "/api/v1/webhooks", {
      url: "http://127.0.0.1:9/hook",
      events: ["pix_charge.paid"],
    });
    expect(webhook.status).toBe(201);

    const other = "merchant-2";
    expectPixError(await sandbox.request(other, "GET", `/api/v1/pix-charges/${charge.txid}`), 404, "NAO_ENCONTRADO");
    expectPixError(await sandbox.request(other, "PUT", `/api/v1/pix-charges/${charge.txid}/cancel`), 404);
    expectPixError(await sandbox.request(other, "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`), 404);
    expectPixError(await sandbox.request(other, "POST", `/sandbox/v1/pix-charges/${charge.txid}/expire`), 404);
    expectPixError(await sandbox.request(other, "POST", "/api/v1/pix-refunds", { txid: paid.txid, amount: 1 }), 404);
    expectPixError(await sandbox.request(other, "GET", `/api/v1/pix-refunds/${refund.body.pixRefundId}`), 404);
    expectPixError(
      await sandbox.request(other, "POST", `/sandbox/v1/pix-refunds/${refund.body.pixRefundId}/settle`),
      404,
    );
    expectPixError(
      await sandbox.request(other, "PUT", `/api/v1/webhooks/${webhook.body.id}`, {
        url: "http://127.0.0.1:9/x",
        events: ["pix_charge.paid"],
        active: false,
      }),
      404,
    );

    const charges = await sandbox.request(other, "GET", `/api/v1/pix-charges?${wholeRange}`);
    expect(charges.body).toMatchObject({ totalElements: 0, empty: true, content: [] });
    const refunds = await sandbox.request(other, "GET", "/api/v1/pix-refunds");
    expect(refunds.body).toMatchObject({ totalElements: 0, content: [] });
    expect((await sandbox.request(other, "GET", "/api/v1/webhooks")).body).toEqual([]);
    expect((await sandbox.request(other, "GET", "/sandbox/v1/webhook-deliveries")).body).toEqual([]);

    // The owner still sees everything, untouched.
    expect((await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`)).body.status).toBe("ACTIVE");
    expect((await sandbox.request("merchant", "GET", "/api/v1/webhooks")).body).toHaveLength(1);
  });
});

describe("common behaviour", () => {
  it("echoes x-transaction-id as xTransactionId, or generates one", async () => {
    const traced = await sandbox.request("merchant", "GET", "/api/v1/pix-charges/unknown", undefined, {
      "x-transaction-id": "2f1e4c8a-0000-4000-8000-000000000001",
    });
    expectPixError(traced, 404);
    expect(traced.body.xTransactionId).toBe("2f1e4c8a-0000-4000-8000-000000000001");
    const generated = await sandbox.request("merchant", "GET", "/api/v1/pix-charges/unknown");
    expect(generated.body.xTransactionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers unknown routes with 404 and bad JSON with 400, in the 7.1 body", async () => {
    expectPixError(await sandbox.request("merchant", "GET", "/api/v1/nothing-here"), 404);
    expectPixError(
      await sandbox.request("merchant", "POST", "/api/v1/pix-charges", "{not json"),
      400,
      "VALIDACAO_INVALIDA",
    );
    expectPixError(await sandbox.request("merchant", "DELETE", "/api/v1/webhooks"), 405);
  });
});
