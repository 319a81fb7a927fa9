import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openWebhookSecret, SecretBoxError, sealWebhookSecret } from "./secret-box";

const key = randomBytes(32);
const secret = `whsec_${"ab".repeat(24)}`;

describe("webhook secret box", () => {
  it("opens what it sealed, with a fresh IV each time and no plain text inside", () => {
    const first = sealWebhookSecret(secret, "w1", key);
    const second = sealWebhookSecret(secret, "w1", key);
    expect(first).not.toEqual(second);
    expect(first).not.toContain("whsec_");
    expect(first.startsWith("v1.")).toBe(true);
    expect(openWebhookSecret(first, "w1", key)).toBe(secret);
  });

  it("refuses another key, another webhook id and an altered box", () => {
    const box = sealWebhookSecret(secret, "w1", key);
    expect(() => openWebhookSecret(box, "w1", randomBytes(32))).toThrow(/another key/);
    expect(() => openWebhookSecret(box, "w2", key)).toThrow(SecretBoxError);
    const parts = box.split(".");
    parts[4] = Buffer.from("x".repeat(10)).toString("base64url");
    expect(() => openWebhookSecret(parts.join("."), "w1", key)).toThrow(SecretBoxError);
    expect(() => openWebhookSecret("garbage", "w1", key)).toThrow(/not a secret box/);
  });
});

describe("WEBHOOK_SECRET_KEY", () => {
  it("accepts 32 bytes as base64 or hex", () => {
    expect(getWebhooksEnv({ WEBHOOK_SECRET_KEY: key.toString("base64") }).secretKey.equals(key)).toBe(true);
    expect(getWebhooksEnv({ WEBHOOK_SECRET_KEY: key.toString("hex") }).secretKey.equals(key)).toBe(true);
  });

  it("refuses a missing, short or reused key", () => {
    expect(() => getWebhooksEnv({})).toThrow(/WEBHOOK_SECRET_KEY is not set/);
    expect(() => getWebhooksEnv({ WEBHOOK_SECRET_KEY: randomBytes(16).toString("base64") })).toThrow(/32 bytes/);
    const shared = key.toString("base64");
    expect(() => getWebhooksEnv({ WEBHOOK_SECRET_KEY: shared, AUTH_SECRET: shared })).toThrow(/same as AUTH_SECRET/);
  });
});
