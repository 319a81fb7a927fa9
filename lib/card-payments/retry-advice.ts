import "server-only";
import { db } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { merchantAdviceOf } from "./advice";

// A refusal's merchantAdviceCode is obeyed (card networks fine retries against it), per card (BIN + last four) and
// order, persistently: 03 never again; 02 not before the cool-down; 01 not with the same expiry. Others: shown only.

export const retryLaterCooldownMs = 30 * 60_000;

export type TRetryCard = { bin: string; lastFour: string; expiry: string | null };

export type TRetryBlock = { kind: "doNotRetry" } | { kind: "retryLater"; retryAfter: Date } | { kind: "updateCard" };

export const terminalOrderKey = (orderId: string) => `order:${orderId}`;
export const linkOrderKey = (linkPaymentUuid: string) => `link:${linkPaymentUuid}`;

export async function findCardRetryBlock(
  orderKey: string,
  card: TRetryCard,
  now: Date = new Date(),
): Promise<TRetryBlock | null> {
  const rows = await db.cardRetryBlock.findMany({
    where: { orderKey, cardBin: card.bin, cardLastFour: card.lastFour },
  });
  const byCode = new Map(rows.map((row) => [row.adviceCode, row]));
  if (byCode.has("03")) return { kind: "doNotRetry" };
  const later = byCode.get("02");
  if (later?.retryAfter && later.retryAfter > now) return { kind: "retryLater", retryAfter: later.retryAfter };
  const update = byCode.get("01");
  if (update && update.cardExpiry === card.expiry) return { kind: "updateCard" };
  return null;
}

export async function recordCardRetryAdvice(
  client: TMirrorClient | undefined,
  refusal: { orderKey: string; card: TRetryCard; merchantAdviceCode: string | null; paymentId: string | null },
  now: Date = new Date(),
): Promise<void> {
  const advice = merchantAdviceOf(refusal.merchantAdviceCode);
  if (!advice || advice.kind === "unknown") return;
  const retryAfter = advice.kind === "retryLater" ? new Date(now.getTime() + retryLaterCooldownMs) : null;
  const fields = { cardExpiry: refusal.card.expiry, retryAfter, paymentId: refusal.paymentId, createdAt: now };
  await (client ?? db).cardRetryBlock.upsert({
    where: {
      orderKey_cardBin_cardLastFour_adviceCode: {
        orderKey: refusal.orderKey,
        cardBin: refusal.card.bin,
        cardLastFour: refusal.card.lastFour,
        adviceCode: advice.code,
      },
    },
    create: {
      orderKey: refusal.orderKey,
      cardBin: refusal.card.bin,
      cardLastFour: refusal.card.lastFour,
      adviceCode: advice.code,
      ...fields,
    },
    update: fields,
  });
}
