import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { listWebhooks } from "@/lib/gateway/webhooks";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import {
  checkWebhookSignature,
  deactivateWebhook,
  listWebhooksForAdmin,
  registerWebhook,
  retireDueWebhooks,
  startSecretRotation,
  updateWebhook,
} from "./admin";
import { webhookReceiverUrl } from "./receiver-url";
import { openWebhookSecret } from "./secret-box";
import { signWebhookBody } from "./signature";

const context = { actor: { id: null, email: "admin@test.local" }, ip: "127.0.0.1", userAgent: "vitest" };

async function upstreamById(id: string) {
  return (await listWebhooks()).find((webhook) => webhook.id === id);
}

describe("webhook administration against the sandbox", () => {
  let sandbox: TSandbox;

  beforeAll(async () => {
    process.env.AUTH_SECRET ??= "x".repeat(32);
    process.env.WEBHOOK_SECRET_KEY = randomBytes(32).toString("base64");
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    // Earlier tests' webhooks stay upstream; turn them off so nothing is posted anywhere.
    for (const webhook of await listWebhooks()) {
      if (webhook.active)
        await updateWebhook(
          webhook.id,
          { url: webhook.url, events: webhook.events as ["pix_charge.paid"], isActive: false },
          context,
        );
    }
    await db.webhookDelivery.deleteMany();
    await db.webhook.deleteMany();
  });

  it("registers at this app's receiver, keeps only the sealed secret, never shows it, and lists it as held", async () => {
    const registered = await registerWebhook({ events: ["pix_charge.paid", "pix_refund.returned"] }, context);
    const local = await db.webhook.findUniqueOrThrow({ where: { upstreamId: registered.upstreamId } });
    expect(registered.url).toBe(webhookReceiverUrl(local.id));
    // The receiver's own secret is for the app alone: whoever holds it could sign any body.
    expect(registered.secret).toBeNull();
    expect(openWebhookSecret(local.secretCiphertext!, local.id)).toMatch(/^whsec_[0-9a-f]{48}$/);
    expect(JSON.stringify(await db.auditLog.findMany())).not.toContain(
      openWebhookSecret(local.secretCiphertext!, local.id),
    );
    expect(local.isActive).toBe(true);

    const row = (await listWebhooksForAdmin()).find((item) => item.upstreamId === registered.upstreamId);
    expect(row).toMatchObject({
      localId: local.id,
      hasSecret: true,
      isOwnReceiver: true,
      isActive: true,
      retireAt: null,
      deliveries24h: 0,
    });
    expect(
      await db.auditLog.count({ where: { action: "webhook.registered", resourceId: registered.upstreamId } }),
    ).toBe(1);
  });

  it("a gateway refusal leaves no local record behind", async () => {
    await expect(
      registerWebhook({ url: "ftp://nope.example", events: ["pix_charge.paid"] }, context),
    ).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(await db.webhook.count()).toBe(0);
  });

  it("updates URL, events and active together, and deactivates once", async () => {
    const { upstreamId } = await registerWebhook(
      { url: "https://example.com/hook", events: ["pix_charge.paid"] },
      context,
    );
    await updateWebhook(
      upstreamId,
      { url: "https://example.com/other", events: ["link_payment.paid"], isActive: true },
      context,
    );
    expect(await upstreamById(upstreamId)).toMatchObject({
      url: "https://example.com/other",
      events: ["link_payment.paid"],
      active: true,
    });
    await deactivateWebhook(upstreamId, context);
    expect((await upstreamById(upstreamId))?.active).toBe(false);
    expect((await db.webhook.findUniqueOrThrow({ where: { upstreamId } })).isActive).toBe(false);
    await expect(deactivateWebhook(upstreamId, context)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await db.auditLog.count({ where: { action: "webhook.deactivated", resourceId: upstreamId } })).toBe(1);
  });

  it("rotates the secret: a new webhook on its own receiver path, the old one retired after the overlap", async () => {
    const old = await registerWebhook({ events: ["pix_charge.paid"] }, context);
    const rotated = await startSecretRotation(old.upstreamId, { overlapMinutes: 15 }, context);
    expect(rotated.upstreamId).not.toBe(old.upstreamId);
    expect(rotated.secret).toBeNull();
    const newLocal = await db.webhook.findUniqueOrThrow({ where: { upstreamId: rotated.upstreamId } });
    const oldLocal = await db.webhook.findUniqueOrThrow({ where: { upstreamId: old.upstreamId } });
    expect(openWebhookSecret(newLocal.secretCiphertext!, newLocal.id)).not.toBe(
      openWebhookSecret(oldLocal.secretCiphertext!, oldLocal.id),
    );
    expect(rotated.url).toBe(webhookReceiverUrl(newLocal.id));
    expect(await upstreamById(rotated.upstreamId)).toMatchObject({ events: ["pix_charge.paid"], active: true });
    await expect(startSecretRotation(old.upstreamId, { overlapMinutes: 15 }, context)).rejects.toMatchObject({
      code: "CONFLICT",
    });

    const rows = await listWebhooksForAdmin();
    expect(rows.find((row) => row.upstreamId === old.upstreamId)?.retireAt).toEqual(rotated.retireAt);
    expect(rows.find((row) => row.upstreamId === rotated.upstreamId)?.replacesUpstreamId).toBe(old.upstreamId);

    // Both stay active during the overlap; afterwards only the new one.
    expect(await retireDueWebhooks(new Date())).toBe(0);
    expect((await upstreamById(old.upstreamId))?.active).toBe(true);
    expect(await retireDueWebhooks(new Date(rotated.retireAt.getTime() + 1000))).toBe(1);
    expect(await retireDueWebhooks(new Date(rotated.retireAt.getTime() + 2000))).toBe(0);
    expect((await upstreamById(old.upstreamId))?.active).toBe(false);
    expect((await upstreamById(rotated.upstreamId))?.active).toBe(true);
    expect(await db.webhook.findUniqueOrThrow({ where: { upstreamId: old.upstreamId } })).toMatchObject({
      isActive: false,
      retiredAt: expect.any(Date),
    });
    expect(
      await db.auditLog.count({ where: { action: { in: ["webhook.rotation_started", "webhook.retired"] } } }),
    ).toBe(2);
  });

  it("checks a signature with a stored secret without revealing the expected one", async () => {
    const { upstreamId, secret: shown } = await registerWebhook(
      { url: "https://example.com/hook", events: ["pix_charge.paid"] },
      context,
    );
    // A receiver elsewhere needs its secret: it is shown, once.
    expect(shown).toMatch(/^whsec_[0-9a-f]{48}$/);
    const secret = shown!;
    const { id: localWebhookId } = await db.webhook.findUniqueOrThrow({ where: { upstreamId } });
    const body = '{"event":"pix_charge.paid"}';
    expect(await checkWebhookSignature({ body, signature: signWebhookBody(secret, body), localWebhookId })).toEqual({
      isValid: true,
    });
    const wrong = await checkWebhookSignature({ body, signature: signWebhookBody("other", body), localWebhookId });
    expect(wrong).toEqual({ isValid: false, reason: "mismatch" });
    const pasted = await checkWebhookSignature({ body, signature: signWebhookBody("other", body), secret });
    expect(pasted).toMatchObject({
      isValid: false,
      reason: "mismatch",
      expectedSignature: signWebhookBody(secret, body),
    });
  });
});
