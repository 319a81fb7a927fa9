import "server-only";
import { randomUUID } from "node:crypto";
import { runSql } from "@/lib/db/sql";

// PCI DSS 8.2.8: a session idle for more than 15 minutes must sign in again. The clock is on the server, one row
// per browser session (the token's `sid`), so a copied cookie or a re-issued one does not restart it.
export const sessionIdleTimeoutMs = 15 * 60_000;
// Activity is written at most this often (each request reads it, few write it): a session may therefore end up to
// this much before 15 minutes of true idleness, never after.
export const sessionActivityWriteEveryMs = 60_000;

export type TSessionActivityFlags = { isIdle: boolean; isActivityStale: boolean };

// Read in the session check's own query ($2 to $4), so the idle clock costs no extra round trip. A session with no
// row yet counts from its sign-in; rows of idle sessions may be deleted, since the sign-in time then says the same.
export const sessionActivityColumns = `
  COALESCE((SELECT "lastSeenAt" FROM "SessionActivity" WHERE id = $2::text), ($3::timestamptz AT TIME ZONE 'UTC'))
    <= ($4::timestamptz AT TIME ZONE 'UTC') - make_interval(secs => ${sessionIdleTimeoutMs / 1000}) AS "isIdle",
  COALESCE((SELECT "lastSeenAt" FROM "SessionActivity" WHERE id = $2::text), 'epoch'::timestamp)
    <= ($4::timestamptz AT TIME ZONE 'UTC') - make_interval(secs => ${sessionActivityWriteEveryMs / 1000})
    AS "isActivityStale"`;

export function sessionActivityValues(sessionId: string, startedAt: Date, now: Date): string[] {
  return [sessionId, startedAt.toISOString(), now.toISOString()];
}

export async function touchSessionActivity(sessionId: string, userId: string, now: Date): Promise<void> {
  await runSql(
    `INSERT INTO "SessionActivity" (id, "userId", "lastSeenAt")
     VALUES ($1::text, $2::uuid, ($3::timestamptz AT TIME ZONE 'UTC'))
     ON CONFLICT (id) DO UPDATE SET "lastSeenAt" = GREATEST("SessionActivity"."lastSeenAt", EXCLUDED."lastSeenAt")`,
    [sessionId, userId, now.toISOString()],
  );
}

// At each sign-in: rows idle past the timeout prove nothing the session's sign-in time does not (see above).
export async function forgetIdleSessionActivity(now: Date): Promise<void> {
  await runSql(
    `DELETE FROM "SessionActivity"
     WHERE "lastSeenAt" <= ($1::timestamptz AT TIME ZONE 'UTC') - make_interval(secs => ${sessionIdleTimeoutMs / 1000})`,
    [now.toISOString()],
  );
}

export type TNewSessionClaims = { sid: string; sessionStartedAt: number };

// A new browser session (sign-in, or the current browser re-issued after a password or two-factor change): its
// id and start go into the token, and its clock starts now.
export async function startSessionActivity(userId: string, now = new Date()): Promise<TNewSessionClaims> {
  const sid = randomUUID();
  await forgetIdleSessionActivity(now);
  await touchSessionActivity(sid, userId, now);
  return { sid, sessionStartedAt: Math.floor(now.getTime() / 1000) };
}
