import "server-only";
import { db } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { isoUtc, runSql } from "@/lib/db/sql";
import { merchantAdviceOf } from "./advice";

// A refusal's merchantAdviceCode is obeyed (card networks fine retries against it), per card (BIN + last four) and
// order, persistently: 03 never again; 02 not before the cool-down; 01 not with the same expiry. Others: shown only.

export const retryLaterCooldownMs = 30 * 60_000;

export type TRetryCard = { bin: string; lastFour: string; expiry: string | null };

export type TRetryBlock = { kind: "doNotRetry" } | { kind: "retryLater"; retryAfter: Date } | { kind: "updateCard" };

export const terminalOrderKey = (orderId: string) => `order:${orderId}`;
export const linkOrderKey = (linkPaymentUuid: string) => `link:${linkPaymentUuid}`;

type TBlockRow = { adviceCode: string; cardExpiry: string | null; retryAfter: string | null };

/** The card's blocks for an order as one JSON array expression over three placeholders (order key, BIN, last four). */
export function retryBlocksJsonSql([orderKey, bin, lastFour]: string[]): string {
  return `(SELECT coalesce(json_agg(json_build_object('adviceCode', "adviceCode", 'cardExpiry', "cardExpiry",
    'retryAfter', ${isoUtc('"retryAfter"')})), '[]'::json)
  FROM "CardRetryBlock" WHERE "orderKey" = ${orderKey}::text AND "cardBin" = ${bin}::text AND "cardLastFour" = ${lastFour}::text)`;
}

export const retryBlocksValues = (orderKey: string, card: TRetryCard) => [orderKey, card.bin, card.lastFour];

// Raw SQL: read before every card payment.
const findBlocksSql = `SELECT ${retryBlocksJsonSql(["$1", "$2", "$3"])} AS "blocks"`;

export async function findCardRetryBlock(
  orderKey: string,
  card: TRetryCard,
  now: Date = new Date(),
): Promise<TRetryBlock | null> {
  const [row] = await runSql<{ blocks: unknown }>(findBlocksSql, retryBlocksValues(orderKey, card));
  return retryBlockOf(row?.blocks, card, now);
}

export function retryBlockOf(blocks: unknown, card: TRetryCard, now: Date = new Date()): TRetryBlock | null {
  const byCode = new Map(((blocks ?? []) as TBlockRow[]).map((row) => [row.adviceCode, row]));
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
