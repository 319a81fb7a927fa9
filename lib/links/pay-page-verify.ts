import "server-only";
import { countRateLimitHit, getRateLimitStatus, resetRateLimit } from "@/lib/auth/rate-limit";
import type { TRateLimitRule } from "@/lib/auth/rate-limit-window";
import { db } from "@/lib/db/client";
import { describeGatewayFailure, GatewayHttpError, isGatewayNotFound } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payment-links";
import { log } from "@/lib/log";
import { upsertPaymentLinkFromGateway } from "./mirror";
import { isRecentlyUnknownLink, rememberUnknownLink } from "./pay-page-lookup";
import { ZLinkVerificationCode } from "./schemas";

// The pay page's verification code: upstream checks it, this module limits how often a link or an address may guess.

// Per link: 5 tries per window, each full window lengthening the next (15 min, 1 h, 4 h, 24 h); 20 wrong codes since
// the last right one lock it for good (20 of 900,000 codes). The per-IP limit counts wrong codes only (NAT).
const verifyLinkRule: TRateLimitRule = { limit: 5, windowMs: 15 * 60_000 };
const verifyBackoffWindowsMs = [15 * 60_000, 60 * 60_000, 4 * 60 * 60_000, 24 * 60 * 60_000] as const;
const verifyWrongCodeCap = 20;
const verifyIpRule: TRateLimitRule = { limit: 30, windowMs: 15 * 60_000 };
// Longer than any link lives (365 days), and past the rate-limit retention, which removes expired counters only.
const verifyCapRule: TRateLimitRule = { limit: verifyWrongCodeCap, windowMs: 400 * 24 * 60 * 60_000 };

const linkKey = (linkPaymentUuid: string) => `pay-verify:link:${linkPaymentUuid}`;
const wrongCodesKey = (linkPaymentUuid: string) => `pay-verify:wrong:${linkPaymentUuid}`;
const ipKey = (ip: string | null) => `pay-verify:ip:${ip ?? "unknown"}`;

function verifyWindowRule(wrongCodes: number): TRateLimitRule {
  const level = Math.min(Math.floor(wrongCodes / verifyLinkRule.limit), verifyBackoffWindowsMs.length - 1);
  return { limit: verifyLinkRule.limit, windowMs: verifyBackoffWindowsMs[level]! };
}

async function countWrongCodes(linkPaymentUuid: string, now: Date): Promise<number> {
  const bucket = await db.rateLimitBucket.findUnique({ where: { key: wrongCodesKey(linkPaymentUuid) } });
  return bucket && bucket.expiresAt > now ? bucket.count : 0;
}

export type TVerificationLock = { wrongCodes: number };

// For staff: the payer can no longer verify; upstream has no call that issues a new code.
export async function getVerificationLock(
  linkPaymentUuid: string,
  now = new Date(),
): Promise<TVerificationLock | null> {
  const wrongCodes = await countWrongCodes(linkPaymentUuid, now);
  return wrongCodes >= verifyWrongCodeCap ? { wrongCodes } : null;
}

export type TVerifyOutcome =
  | { status: "ok" }
  | { status: "wrong" }
  | { status: "limited"; retryAfterMs: number }
  | { status: "locked" }
  | { status: "unavailable" };

// Upstream decides; attempts count atomically first so parallel guesses cannot slip past; wrong and unknown answer alike.
export async function verifyPayPageCode(
  linkPaymentUuid: string,
  code: string,
  ip: string | null,
): Promise<TVerifyOutcome> {
  const now = new Date();
  const ipStatus = await getRateLimitStatus(ipKey(ip), verifyIpRule, now);
  if (ipStatus.isLimited) return { status: "limited", retryAfterMs: ipStatus.retryAfterMs };
  const wrongSoFar = await countWrongCodes(linkPaymentUuid, now);
  if (wrongSoFar >= verifyWrongCodeCap) return { status: "locked" };
  const linkWindow = await countRateLimitHit(linkKey(linkPaymentUuid), verifyWindowRule(wrongSoFar), now);
  if (linkWindow.count > verifyLinkRule.limit)
    return { status: "limited", retryAfterMs: linkWindow.expiresAt.getTime() - now.getTime() };
  const wrongCodes = await countRateLimitHit(wrongCodesKey(linkPaymentUuid), verifyCapRule, now);
  if (wrongCodes.count > verifyWrongCodeCap) return { status: "locked" };

  const wrong = async (): Promise<TVerifyOutcome> => {
    await countRateLimitHit(ipKey(ip), verifyIpRule, now);
    log.warn({ linkPaymentUuid, ip, attempt: linkWindow.count }, "pay page: wrong verification code");
    return { status: "wrong" };
  };
  if (!ZLinkVerificationCode.safeParse(code).success || isRecentlyUnknownLink(linkPaymentUuid, now)) return wrong();
  try {
    const link = await gateway.verifyPaymentLink(linkPaymentUuid, code);
    await upsertPaymentLinkFromGateway(link);
  } catch (error) {
    if (isGatewayNotFound(error)) rememberUnknownLink(linkPaymentUuid, now);
    if (error instanceof GatewayHttpError && (error.status === 400 || error.status === 404)) return wrong();
    // Not the error itself: a connection error's cause may carry the request path, code included.
    log.warn(
      { linkPaymentUuid, failure: describeGatewayFailure(error) },
      "pay page: verification could not be checked",
    );
    await db.rateLimitBucket.updateMany({
      where: { key: wrongCodesKey(linkPaymentUuid), windowStart: wrongCodes.windowStart, count: { gt: 0 } },
      data: { count: { decrement: 1 } },
    });
    return { status: "unavailable" };
  }
  await resetRateLimit(linkKey(linkPaymentUuid));
  await resetRateLimit(wrongCodesKey(linkPaymentUuid));
  return { status: "ok" };
}
