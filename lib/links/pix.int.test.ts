import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPaymentLink } from "./payment-links";
import { getOrCreateLinkPixCharge } from "./pix";
import { ZCreatePaymentLinkInput } from "./schemas";

const payer = { actor: null, ip: "198.51.100.7", userAgent: "vitest" };

// The default embedded database has one connection: nothing may reach the global client while a
// transaction holds it, or the request waits for the transaction's own timeout.
describe("paying a link by Pix on the embedded PGlite database", () => {
  let sandbox: TSandbox;
  let embedded: { close: () => Promise<void> };

  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
    await embedded?.close();
  });

  async function newLink(): Promise<string> {
    const input = ZCreatePaymentLinkInput.parse({
      idempotencyKey: randomUUID(),
      payerName: "Fulano de Tal",
      payerDocument: "529.982.247-25",
      amountCents: 4_990,
      installments: 1,
      acceptedMethodCodes: [1, 2],
      expirationDays: 7,
    });
    return (await createPaymentLink(input, payer)).linkPaymentUuid;
  }

  it("issues the charge at once, and two payers at the same time get the same one", async () => {
    const linkPaymentUuid = await newLink();
    const startedAt = Date.now();
    const [first, second] = await Promise.all([
      getOrCreateLinkPixCharge(linkPaymentUuid, payer),
      getOrCreateLinkPixCharge(linkPaymentUuid, payer),
    ]);
    // Far below the 30 s transaction timeout the defect waited for.
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(first).toMatchObject({ status: "waiting", pixCopyAndPaste: expect.any(String) });
    expect(second.pixCopyAndPaste).toBe(first.pixCopyAndPaste);
    const link = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    expect(await db.pixCharge.count({ where: { userReference: `payment-link:${linkPaymentUuid}` } })).toBe(1);
    expect(link.pixChargeTxid).toEqual(expect.any(String));
  });
});
