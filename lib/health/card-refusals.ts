import "server-only";
import { runSql, type TSqlRunner } from "@/lib/db/sql";

export type TCardRefusalCounts = { attempts: number; refused: number };

// Refused as the card list's status filter reads it (lib/card-payments/list.ts): a codigo other than 0, or NEG.
// A cancelled payment was approved first, so it is never a refusal.
const refusalSql = `
SELECT count(*)::int AS attempts,
       count(*) FILTER (WHERE p.status <> 'CAN' AND (NOT p."isApproved" OR p.status = 'NEG'))::int AS refused
  FROM "CardPayment" p
 WHERE p."occurredAt" >= ($1::timestamptz AT TIME ZONE 'UTC')
   AND ($2::timestamptz IS NULL OR p."occurredAt" < ($2::timestamptz AT TIME ZONE 'UTC'))`;

/** Card payments that occurred in [since, until), and how many of them were refused. */
export async function readCardRefusals(
  { since, until }: { since: Date; until?: Date },
  run: TSqlRunner = runSql,
): Promise<TCardRefusalCounts> {
  const [row] = await run<TCardRefusalCounts>(refusalSql, [since.toISOString(), until?.toISOString() ?? null]);
  return { attempts: row?.attempts ?? 0, refused: row?.refused ?? 0 };
}
