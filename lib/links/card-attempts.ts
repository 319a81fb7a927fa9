import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { countRateLimitHit, refundRateLimitHit } from "@/lib/auth/rate-limit";
import type { TRateLimitRule, TRateLimitWindow } from "@/lib/auth/rate-limit-window";
import { db } from "@/lib/db/client";

// Card testing: attempts count atomically before upstream, per link and address (Pix stays open); only refusals keep theirs.
const cardLinkRule: TRateLimitRule = { limit: 3, windowMs: 60 * 60_000 };
const cardIpRule: TRateLimitRule = { limit: 10, windowMs: 60 * 60_000 };
// Refusals across every link: more than this in the window is one `security.card_refusal_spike` audit entry.
export const cardRefusalSpikeRule: TRateLimitRule = { limit: 20, windowMs: 10 * 60_000 };

const linkKey = (linkPaymentUuid: string) => `pay-card:link:${linkPaymentUuid}`;
const ipKey = (ip: string | null) => `pay-card:ip:${ip ?? "unknown"}`;
const spikeKey = "pay-card:refusals";

type TCardAttempt = { isAllowed: true; release: () => Promise<void> } | { isAllowed: false; lockedUntil: Date };

const isOver = (window: TRateLimitWindow, rule: TRateLimitRule) => window.count > rule.limit;

export async function claimCardAttempt(linkPaymentUuid: string, ip: string | null, now = new Date()) {
  const link = await countRateLimitHit(linkKey(linkPaymentUuid), cardLinkRule, now);
  if (isOver(link, cardLinkRule)) return { isAllowed: false, lockedUntil: link.expiresAt } satisfies TCardAttempt;
  const address = await countRateLimitHit(ipKey(ip), cardIpRule, now);
  if (isOver(address, cardIpRule)) {
    await refundRateLimitHit(linkKey(linkPaymentUuid), link);
    return { isAllowed: false, lockedUntil: address.expiresAt } satisfies TCardAttempt;
  }
  return {
    isAllowed: true,
    release: async () => {
      await refundRateLimitHit(linkKey(linkPaymentUuid), link);
      await refundRateLimitHit(ipKey(ip), address);
    },
  } satisfies TCardAttempt;
}

// The alarm is written by the one refusal that crosses the threshold, so a window yields a single entry.
export async function countCardRefusal(now = new Date()): Promise<void> {
  const window = await countRateLimitHit(spikeKey, cardRefusalSpikeRule, now);
  if (window.count !== cardRefusalSpikeRule.limit + 1) return;
  await recordAudit({
    actor: null,
    action: "security.card_refusal_spike",
    metadata: {
      refusals: window.count,
      windowStart: window.windowStart.toISOString(),
      windowMinutes: cardRefusalSpikeRule.windowMs / 60_000,
    },
  });
}

export type TCardLock = { lockedUntil: string; refusedAttempts: number };

export async function getCardLock(linkPaymentUuid: string, now = new Date()): Promise<TCardLock | null> {
  const bucket = await db.rateLimitBucket.findUnique({ where: { key: linkKey(linkPaymentUuid) } });
  if (!bucket || bucket.expiresAt <= now || bucket.count < cardLinkRule.limit) return null;
  return { lockedUntil: bucket.expiresAt.toISOString(), refusedAttempts: Math.min(bucket.count, cardLinkRule.limit) };
}
