import { readFileSync } from "node:fs";
import path from "node:path";
import { Agent, request } from "undici";

import { test as base } from "./fixtures";

// The payer's side of a Pix, played through the sandbox control API (sandbox/README.md) over the
// same mTLS as the app, with the merchant certificate: the sandbox scopes every resource to the
// client certificate, so it must be the app's own.
const certsDir = process.env.E2E_SANDBOX_CERTS_DIR ?? path.join(process.cwd(), ".data/certs");

export class SandboxControl {
  private readonly agent = new Agent({
    connect: {
      ca: readFileSync(path.join(certsDir, "ca.pem")),
      cert: readFileSync(path.join(certsDir, "merchant.pem")),
      key: readFileSync(path.join(certsDir, "merchant-key.pem")),
    },
  });

  constructor(private readonly baseUrl: string) {}

  /** ACTIVE → PAID, as when the payer's bank settles the Pix. */
  async payPixCharge(txid: string, payer: { payerName?: string; payerDocumentNumber?: string } = {}): Promise<void> {
    await this.post(`/sandbox/v1/pix-charges/${encodeURIComponent(txid)}/pay`, payer);
  }

  async expirePixCharge(txid: string): Promise<void> {
    await this.post(`/sandbox/v1/pix-charges/${encodeURIComponent(txid)}/expire`);
  }

  /** CREATED → EXPIRED now, as when a link's days run out. */
  async expirePaymentLink(linkPaymentUuid: string): Promise<void> {
    await this.post(`/sandbox/v1/payment-links/${encodeURIComponent(linkPaymentUuid)}/expire`);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async post(pathname: string, body?: unknown): Promise<unknown> {
    const response = await request(new URL(pathname, this.baseUrl), {
      method: "POST",
      dispatcher: this.agent,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`sandbox ${pathname} answered ${response.statusCode}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}

export const test = base.extend<{ sandbox: SandboxControl }>({
  sandbox: async ({}, use) => {
    const control = new SandboxControl(process.env.E2E_SANDBOX_URL ?? "https://127.0.0.1:8543");
    await use(control);
    await control.close();
  },
});

export { expect } from "./fixtures";
