import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createUser } from "@/lib/users/users";
import { getAuthOptions } from "./options";
import { loadSessionUser } from "./session-user";

vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
  headers: async () => new Headers({ "user-agent": "vitest", "x-peer-address": "203.0.113.5" }),
}));

// What next-auth hands its signOut event: the decoded session cookie.
async function signOut(token: Record<string, unknown>) {
  await getAuthOptions().events?.signOut?.({ token } as never);
}

describe("sign-out", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
    await db.user.deleteMany();
  });

  async function signedIn() {
    const { user } = await createUser(
      { email: "ana@example.com", name: "Ana", roleId: "operations", password: "a long enough password" },
      { actor: null },
    );
    const { sessionVersion } = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    return {
      sub: user.id,
      email: user.email,
      name: user.name,
      roleId: "operations",
      sessionVersion,
      sid: crypto.randomUUID(),
      iat: Math.floor(Date.now() / 1000),
    };
  }

  it("refuses the old session token once the user has signed out, and records it", async () => {
    const token = await signedIn();
    expect(await loadSessionUser(token)).toMatchObject({ email: "ana@example.com" });
    await signOut(token);
    expect(await loadSessionUser(token)).toBeNull();
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "auth.sign_out" } })).toMatchObject({
      actorEmail: "ana@example.com",
      ip: "203.0.113.5",
      userAgent: "vitest",
    });
  });

  it("changes nothing when an already-ended token is replayed", async () => {
    const token = await signedIn();
    await signOut(token);
    const { sessionVersion } = await db.user.findUniqueOrThrow({ where: { id: token.sub } });
    await signOut(token);
    await signOut({ sub: "not-a-user" });
    expect((await db.user.findUniqueOrThrow({ where: { id: token.sub } })).sessionVersion).toBe(sessionVersion);
    expect(await db.auditLog.count({ where: { action: "auth.sign_out" } })).toBe(1);
  });
});
