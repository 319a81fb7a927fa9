import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createUser, setUserActive } from "@/lib/users/users";
import { verifyPassword } from "./password";
import { accountLimitKey, ipLimitKey, signInSpacing } from "./password-attempts";
import { claimSpacedAttempt } from "./rate-limit";
import { signInWithPassword } from "./sign-in";

// Passes through to the real hash; only counts how many checks reach it.
vi.mock("./password", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./password")>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

const password = "a long enough password";
const context = { ip: "203.0.113.7", userAgent: "vitest" };

async function actions() {
  return (await db.auditLog.findMany({ orderBy: { occurredAt: "asc" } })).map((entry) => entry.action);
}

describe("signInWithPassword", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.user.deleteMany();
    await createUser({ email: "ana@example.com", name: "Ana", roleId: "operations", password }, { actor: null });
    vi.mocked(verifyPassword).mockClear();
  });

  it("lets at most the account's limit of a parallel burst reach the password hash", async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, attempt) =>
        signInWithPassword(
          { email: "ana@example.com", password: `wrong guess ${attempt}` },
          { ...context, ip: `198.51.100.${attempt}` },
        ),
      ),
    );
    expect(vi.mocked(verifyPassword).mock.calls.length).toBeLessThanOrEqual(signInSpacing.account.freeAttempts);
    expect(results.filter((result) => result.status === "rate-limited")).toHaveLength(20);
    expect(results.filter((result) => result.status === "invalid")).toHaveLength(5);
  });

  it("lets at most the IP's remaining free tries of a parallel burst across accounts reach a hash", async () => {
    // 5 earlier failures leave 5 free tries; filled directly to spare 5 hashes.
    for (let hit = 0; hit < signInSpacing.ip.freeAttempts - 5; hit += 1) {
      await claimSpacedAttempt(ipLimitKey(context.ip), signInSpacing.ip);
    }
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, attempt) =>
        signInWithPassword({ email: `ana${attempt}@example.com`, password: "wrong guess" }, context),
      ),
    );
    expect(results.filter((result) => result.status === "rate-limited")).toHaveLength(7);
    expect(await db.auditLog.count({ where: { action: "auth.sign_in_failed" } })).toBe(5);
  });

  it("signs in with the right password, ignoring email case, and records it", async () => {
    const result = await signInWithPassword({ email: " Ana@Example.com ", password }, context);
    expect(result).toMatchObject({
      status: "signed-in",
      user: { email: "ana@example.com", sessionVersion: 1 },
    });
    expect((await db.user.findUniqueOrThrow({ where: { email: "ana@example.com" } })).lastSignInAt).not.toBeNull();
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "auth.sign_in" } });
    expect(entry).toMatchObject({ actorEmail: "ana@example.com", ip: context.ip, userAgent: "vitest" });
  });

  it("refuses a wrong password, an unknown email and a deactivated user alike, and records why", async () => {
    const ana = await db.user.findUniqueOrThrow({ where: { email: "ana@example.com" } });
    expect(await signInWithPassword({ email: "ana@example.com", password: "wrong password!" }, context)).toEqual({
      status: "invalid",
    });
    expect(await signInWithPassword({ email: "nobody@example.com", password }, context)).toEqual({ status: "invalid" });
    await setUserActive(ana.id, false, { actor: null });
    expect(await signInWithPassword({ email: "ana@example.com", password }, context)).toEqual({ status: "invalid" });
    const failures = await db.auditLog.findMany({
      where: { action: "auth.sign_in_failed" },
      orderBy: { occurredAt: "asc" },
    });
    expect(failures.map((entry) => (entry.metadata as { reason: string }).reason)).toEqual([
      "wrong_password",
      "unknown_email",
      "inactive",
    ]);
    expect(JSON.stringify(failures)).not.toContain("wrong password!");
  });

  it("spaces an account's attempts out after 5 failures, says how long to wait, and never locks the owner out", async () => {
    const t0 = new Date();
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    for (let attempt = 0; attempt < signInSpacing.account.freeAttempts; attempt += 1) {
      // Varying IPs: only the account's spacing applies here.
      expect(
        await signInWithPassword(
          { email: "ana@example.com", password: "nope" },
          { ...context, ip: `198.51.100.${attempt}` },
          t0,
        ),
      ).toEqual({ status: "invalid" });
    }
    expect(await signInWithPassword({ email: "ana@example.com", password }, context, t0)).toEqual({
      status: "rate-limited",
      retryAfterSeconds: 1,
    });
    expect(await actions()).toContain("auth.sign_in_rate_limited");
    expect((await signInWithPassword({ email: "ana@example.com", password }, context, at(1))).status).toBe("signed-in");
  });

  it("slows a stranger's address far more than the owner: after 25 wrong passwords the owner waits at most 5 minutes", async () => {
    const stranger = { ...context, ip: "198.51.100.66" };
    let now = Date.now();
    let failures = 0;
    let strangerWait = 0;
    // The stranger's wrong passwords need no real hash (25 would take minutes here): only the spacing is tested.
    vi.mocked(verifyPassword).mockResolvedValue(false);
    while (failures < 25) {
      const result = await signInWithPassword({ email: "ana@example.com", password: "nope" }, stranger, new Date(now));
      if (result.status === "rate-limited") now += result.retryAfterSeconds * 1000;
      else failures += 1;
    }
    vi.mocked(verifyPassword).mockReset();
    const afterLast = new Date(now + signInSpacing.account.maxDelayMs);
    const strangerAgain = await signInWithPassword({ email: "ana@example.com", password }, stranger, afterLast);
    if (strangerAgain.status === "rate-limited") strangerWait = strangerAgain.retryAfterSeconds;
    expect(strangerWait).toBeGreaterThan(30 * 60);
    const owner = await signInWithPassword(
      { email: "ana@example.com", password },
      { ...context, ip: "192.0.2.1" },
      afterLast,
    );
    expect(owner.status).toBe("signed-in");
  });

  it("resets the account counter on success", async () => {
    for (let attempt = 0; attempt < signInSpacing.account.freeAttempts - 1; attempt += 1) {
      await signInWithPassword({ email: "ana@example.com", password: "nope" }, context);
    }
    expect((await signInWithPassword({ email: "ana@example.com", password }, context)).status).toBe("signed-in");
    expect(await db.rateLimitBucket.findUnique({ where: { key: accountLimitKey("ana@example.com") } })).toBeNull();
    expect(await db.rateLimitBucket.findUnique({ where: { key: ipLimitKey(context.ip) } })).toMatchObject({ count: 4 });
  });

  it("slows an IP that failed too often, for every account, but not other IPs", async () => {
    // Filling the IP bucket directly spares 10 password hashes.
    for (let hit = 0; hit < signInSpacing.ip.freeAttempts; hit += 1)
      await claimSpacedAttempt(ipLimitKey(context.ip), signInSpacing.ip);
    expect(await signInWithPassword({ email: "ana@example.com", password }, context)).toMatchObject({
      status: "rate-limited",
    });
    const limited = await db.auditLog.findFirstOrThrow({ where: { action: "auth.sign_in_rate_limited" } });
    expect(limited.metadata).toMatchObject({ scope: "ip" });
    expect(
      (await signInWithPassword({ email: "ana@example.com", password }, { ...context, ip: "192.0.2.1" })).status,
    ).toBe("signed-in");
  });
});
