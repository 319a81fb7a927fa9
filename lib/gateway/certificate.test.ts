import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureCerts } from "@/sandbox/certs/certs";
import { describeCertificate } from "./certificate";

const certsDir = path.resolve(".data/test-certs");

describe("describeCertificate", () => {
  it("shows subject, issuer, fingerprint and the expiry state around the 30-day warning", async () => {
    await ensureCerts(certsDir, []);
    const pem = readFileSync(path.join(certsDir, "merchant.pem"), "utf8");
    const validTo = new Date(new X509Certificate(pem).validTo);
    const info = describeCertificate(pem, new Date(validTo.getTime() - 40 * 86_400_000));
    expect(info).toMatchObject({
      subject: expect.stringContaining("CN=merchant"),
      expiryState: "valid",
      daysUntilExpiry: 40,
    });
    expect(info.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(describeCertificate(pem, new Date(validTo.getTime() - 10 * 86_400_000))).toMatchObject({
      expiryState: "expiring",
      daysUntilExpiry: 10,
    });
    expect(describeCertificate(pem, new Date(validTo.getTime() + 1000)).expiryState).toBe("expired");
  });
});
