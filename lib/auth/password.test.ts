import { describe, expect, it } from "vitest";
import {
  generateOneTimePassword,
  getPasswordHashLoad,
  hashPassword,
  maxConcurrentHashes,
  verifyDummyPassword,
  verifyPassword,
} from "./password";

// A low cost keeps the unit tests fast; the production cost, checked below, may take seconds on a busy machine.
const cheap = { N: 2 ** 10, r: 8, p: 1 };

describe("hashPassword", () => {
  it("stores a self-describing string at OWASP's cost by default, never the password", {
    timeout: 30_000,
  }, async () => {
    const stored = await hashPassword("correct horse battery");
    const [scheme, n, r, p, salt, key] = stored.split("$");
    expect({ scheme, n, r, p }).toEqual({ scheme: "scrypt", n: "131072", r: "8", p: "1" });
    expect(Buffer.from(salt!, "base64url")).toHaveLength(16);
    expect(Buffer.from(key!, "base64url")).toHaveLength(64);
    expect(stored).not.toContain("correct horse battery");
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same", cheap)).not.toBe(await hashPassword("same", cheap));
  });
});

describe("verifyPassword", () => {
  it("accepts the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("s3cret-pass", cheap);
    expect(await verifyPassword("s3cret-pass", stored)).toBe(true);
    expect(await verifyPassword("s3cret-pasS", stored)).toBe(false);
  });

  it("treats Unicode forms of the same password alike", async () => {
    const stored = await hashPassword("se\u0301nha", cheap);
    expect(await verifyPassword("s\u00e9nha", stored)).toBe(true);
  });

  it("refuses malformed or foreign hashes instead of throwing", async () => {
    for (const stored of [
      "",
      "plain",
      "bcrypt$2$x$y$z$w",
      "scrypt$abc$8$1$c2FsdA$a2V5",
      "scrypt$1024$8$1$c2FsdA$a2V5",
    ]) {
      expect(await verifyPassword("anything", stored)).toBe(false);
    }
  });

  it("the dummy check always fails", { timeout: 30_000 }, async () => {
    expect(await verifyDummyPassword("anything")).toBe(false);
  });
});

describe("concurrent hashes", () => {
  it("run a few at a time while the rest wait their turn, and all finish", async () => {
    await expect.poll(() => getPasswordHashLoad(), { timeout: 30_000 }).toEqual({ active: 0, waiting: 0 });
    const stored = await hashPassword("s3cret-pass", cheap);
    const checks = Array.from({ length: 8 }, (_, index) =>
      verifyPassword(index === 0 ? "s3cret-pass" : "nope", stored),
    );
    expect(getPasswordHashLoad()).toEqual({ active: maxConcurrentHashes, waiting: 8 - maxConcurrentHashes });
    const peaks: number[] = [];
    const sample = setInterval(() => peaks.push(getPasswordHashLoad().active), 1);
    const results = await Promise.all(checks);
    clearInterval(sample);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(Math.max(...peaks, 0)).toBeLessThanOrEqual(maxConcurrentHashes);
    expect(getPasswordHashLoad()).toEqual({ active: 0, waiting: 0 });
  });
});

describe("generateOneTimePassword", () => {
  it("makes unambiguous passwords of the asked length that differ each time", () => {
    const passwords = Array.from({ length: 50 }, () => generateOneTimePassword());
    for (const password of passwords) expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{16}$/);
    expect(new Set(passwords).size).toBe(50);
    expect(generateOneTimePassword(24)).toHaveLength(24);
  });
});
