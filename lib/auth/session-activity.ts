import "server-only";
import { randomUUID } from "node:crypto";
import { runSql } from "@/lib/db/sql";

// PCI DSS 8.2.8: 15 idle minutes end a session. Tracked server-side per `sid`: a copied cookie does not reset it.
export const sessionIdleTimeoutMs = 15 * 60_000;
// Written at most this often: a session may end up to this much early, never late.
const sessionActivityWriteEveryMs = 60_000;

export type TSessionActivityFlags = { isIdle: boolean; isActivityStale: boolean };

// Read in the session check's query ($2 to $4): no extra round trip. No row counts from sign-in, so idle rows may go.
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

async function forgetIdleSessionActivity(now: Date): Promise<void> {
  await runSql(
    `DELETE FROM "SessionActivity"
     WHERE "lastSeenAt" <= ($1::timestamptz AT TIME ZONE 'UTC') - make_interval(secs => ${sessionIdleTimeoutMs / 1000})`,
    [now.toISOString()],
  );
}

export type TNewSessionClaims = { sid: string; sessionStartedAt: number };

export async function startSessionActivity(userId: string, now = new Date()): Promise<TNewSessionClaims> {
  const sid = randomUUID();
  await forgetIdleSessionActivity(now);
  await touchSessionActivity(sid, userId, now);
  return { sid, sessionStartedAt: Math.floor(now.getTime() / 1000) };
}
