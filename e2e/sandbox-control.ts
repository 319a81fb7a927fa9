import { test as base } from "./fixtures";
import { SandboxClient } from "./sandbox-client";
import { targetOf } from "./targets";

// The payer's side of a Pix, played through the sandbox control API (sandbox/README.md).
export class SandboxControl {
  constructor(private readonly client: SandboxClient) {}

  /** ACTIVE → PAID, as when the payer's bank settles the Pix. */
  async payPixCharge(txid: string, payer: { payerName?: string; payerDocumentNumber?: string } = {}): Promise<void> {
    await this.client.call("POST", `/sandbox/v1/pix-charges/${encodeURIComponent(txid)}/pay`, payer);
  }

  async expirePixCharge(txid: string): Promise<void> {
    await this.client.call("POST", `/sandbox/v1/pix-charges/${encodeURIComponent(txid)}/expire`);
  }

  /** Slow and/or 5xx gateway answers for the app's certificate (sandbox/README.md, "Control API"). */
  async setFaults(faults: { latencyMs?: number; failureStatus?: 500 | 502 | 503 | 504; pathPrefix?: string }) {
    await this.client.call("PUT", "/sandbox/v1/faults", faults);
  }

  async clearFaults(): Promise<void> {
    await this.client.call("DELETE", "/sandbox/v1/faults");
  }

  /** Changes a charge behind the app's back, with no event: drift for the reconciler to find. */
  async tamperPixCharge(txid: string, change: { amountCents?: number; status?: string }): Promise<void> {
    await this.client.call("POST", `/sandbox/v1/pix-charges/${encodeURIComponent(txid)}/tamper`, change);
  }

  /** The gateway forgets the charge: only the app's mirror still has it. */
  async forgetPixCharge(txid: string): Promise<void> {
    await this.client.call("DELETE", `/sandbox/v1/pix-charges/${encodeURIComponent(txid)}`);
  }

  /** CREATED → EXPIRED now, as when a link's days run out. */
  async expirePaymentLink(linkPaymentUuid: string): Promise<void> {
    await this.client.call("POST", `/sandbox/v1/payment-links/${encodeURIComponent(linkPaymentUuid)}/expire`);
  }
}

export const test = base.extend<{ sandbox: SandboxControl }>({
  sandbox: async ({ database }, use) => {
    const client = new SandboxClient(targetOf(database).sandboxUrl);
    await use(new SandboxControl(client));
    await client.close();
  },
});

export { expect } from "./fixtures";
