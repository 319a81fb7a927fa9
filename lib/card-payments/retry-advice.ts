import "server-only";
import { db } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { runSql } from "@/lib/db/sql";
import { merchantAdviceOf } from "./advice";

// A refusal's merchantAdviceCode is obeyed (card networks fine retries against it), per card (BIN + last four) and
// order, persistently: 03 never again; 02 not before the cool-down; 01 not with the same expiry. Others: shown only.

export const retryLaterCooldownMs = 30 * 60_000;

export type TRetryCard = { bin: string; lastFour: string; expiry: string | null };

export type TRetryBlock = { kind: "doNotRetry" } | { kind: "retryLater"; retryAfter: Date } | { kind: "updateCard" };

export const terminalOrderKey = (orderId: string) => `order:${orderId}`;
export const linkOrderKey = (linkPaymentUuid: string) => `link:${linkPaymentUuid}`;

// Raw SQL: read before every card payment.
const findBlocksSql = `
SELECT "adviceCode", "cardExpiry", to_char("retryAfter", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "retryAfter"
FROM "CardRetryBlock" WHERE "orderKey" = $1::text AND "cardBin" = $2::text AND "cardLastFour" = $3::text`;

export async function findCardRetryBlock(
  orderKey: string,
  card: TRetryCard,
  now: Date = new Date(),
): Promise<TRetryBlock | null> {
  const rows = await runSql<{ adviceCode: string; cardExpiry: string | null; retryAfter: string | null }>(
    findBlocksSql,
    [orderKey, card.bin, card.lastFour],
  );
  const byCode = new Map(rows.map((row) => [row.adviceCode, row]));
  if (byCode.has("03")) return { kind: "doNotRetry" };
  const laterUntil = byCode.get("02")?.retryAfter;
  const retryAfter = laterUntil ? new Date(laterUntil) : null;
  if (retryAfter && retryAfter > now) return { kind: "retryLater", retryAfter };
  const update = byCode.get("01");
  if (update && update.cardExpiry === card.expiry) return { kind: "updateCard" };
  return null;
}

export type TCardRefusal = {
  orderKey: string;
  card: TRetryCard;
  merchantAdviceCode: string | null;
  paymentId: string | null;
};

/** The block a refusal's advice starts, or null when its advice asks nothing (none, or a code not known). */
export function cardRetryAdviceRow(refusal: TCardRefusal, now: Date = new Date()) {
  const advice = merchantAdviceOf(refusal.merchantAdviceCode);
  if (!advice || advice.kind === "unknown") return null;
  return {
    orderKey: refusal.orderKey,
    cardBin: refusal.card.bin,
    cardLastFour: refusal.card.lastFour,
    adviceCode: advice.code,
    cardExpiry: refusal.card.expiry,
    retryAfter: advice.kind === "retryLater" ? new Date(now.getTime() + retryLaterCooldownMs) : null,
    paymentId: refusal.paymentId,
    createdAt: now,
  };
}

export async function recordCardRetryAdvice(
  client: TMirrorClient | undefined,
  refusal: TCardRefusal,
  now: Date = new Date(),
): Promise<void> {
  const row = cardRetryAdviceRow(refusal, now);
  if (!row) return;
  const { orderKey, cardBin, cardLastFour, adviceCode, ...fields } = row;
  await (client ?? db).cardRetryBlock.upsert({
    where: { orderKey_cardBin_cardLastFour_adviceCode: { orderKey, cardBin, cardLastFour, adviceCode } },
    create: row,
    update: fields,
  });
}
