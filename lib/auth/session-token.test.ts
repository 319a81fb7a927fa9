import { randomBytes } from "node:crypto";
import { EncryptJWT } from "jose";
import { decode, encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { decodeSessionToken } from "./session-token";

const secret = randomBytes(32).toString("base64");
const claims = {
  sub: "9b2f4c1e-1111-4222-8333-944455556666",
  email: "a@example.com",
  role: "STAFF" as const,
  sessionVersion: 3,
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("decodeSessionToken", () => {
  it("reads what next-auth encodes, as next-auth's own decode does", async () => {
    const token = await encode({ token: claims, secret });
    const payload = decodeSessionToken(token, secret);
    expect(payload).toMatchObject(claims);
    expect(payload).toEqual(await decode({ token, secret }));
  });

  it("refuses an expired, not yet valid, altered or foreign token", async () => {
    expect(decodeSessionToken(await encode({ token: claims, secret, maxAge: -60 }), secret)).toBeNull();
    // Inside next-auth's 15 s of clock tolerance it is still good.
    expect(decodeSessionToken(await encode({ token: claims, secret, maxAge: -5 }), secret)).toMatchObject(claims);
    const token = await encode({ token: { ...claims, nbf: Math.floor(Date.now() / 1000) + 3600 }, secret });
    expect(decodeSessionToken(token, secret)).toBeNull();

    const good = (await encode({ token: claims, secret })).split(".");
    const flip = (text: string) => `${text[0] === "A" ? "B" : "A"}${text.slice(1)}`;
    for (const index of [0, 2, 3, 4]) {
      const altered = [...good];
      altered[index] = flip(altered[index]!);
      expect(decodeSessionToken(altered.join("."), secret), `part ${index}`).toBeNull();
    }
    // The header is authenticated: another algorithm or an extra field does not get through.
    for (const header of [
      { alg: "dir", enc: "A128GCM" },
      { alg: "dir", enc: "A256GCM", zip: "DEF" },
    ])
      expect(decodeSessionToken([b64(header), ...good.slice(1)].join("."), secret)).toBeNull();
    // A truncated tag is refused, not checked on fewer bytes.
    expect(decodeSessionToken([...good.slice(0, 4), good[4]!.slice(0, 8)].join("."), secret)).toBeNull();
    expect(decodeSessionToken(good.join("."), randomBytes(32).toString("base64"))).toBeNull();
    expect(decodeSessionToken("not-a-token", secret)).toBeNull();
    expect(decodeSessionToken("a.b.c.d.e", secret)).toBeNull();
  });

  it("refuses a token without an expiry", async () => {
    const { hkdfSync } = await import("node:crypto");
    const key = new Uint8Array(hkdfSync("sha256", secret, "", "NextAuth.js Generated Encryption Key", 32));
    const token = await new EncryptJWT(claims).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).encrypt(key);
    expect(decodeSessionToken(token, secret)).toBeNull();
    const withExpiry = await new EncryptJWT(claims)
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setExpirationTime("1h")
      .encrypt(key);
    expect(decodeSessionToken(withExpiry, secret)).toMatchObject(claims);
  });

  it("follows a change of secret", async () => {
    const other = randomBytes(32).toString("base64");
    expect(decodeSessionToken(await encode({ token: claims, secret }), secret)).toMatchObject(claims);
    expect(decodeSessionToken(await encode({ token: claims, secret: other }), other)).toMatchObject(claims);
    expect(decodeSessionToken(await encode({ token: claims, secret }), secret)).toMatchObject(claims);
  });
});
