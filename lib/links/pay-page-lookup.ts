import "server-only";
import { countRateLimitHit, refundRateLimitHit } from "@/lib/auth/rate-limit";
import type { TRateLimitRule } from "@/lib/auth/rate-limit-window";
import { AppError } from "@/lib/errors";

// /pay/{uuid} for a link the mirror does not hold asks the gateway, one mTLS call per uuid: a stranger trying
// random uuids would make the app call upstream for each. Two bounds: a uuid the gateway just said it does not know
// is answered from memory for a short while, and each client address gets a few such lookups per window.

export const unknownLinkTtlMs = 60_000;
// Bounded memory: past this many entries the oldest is dropped (a Map keeps insertion order).
export const maxUnknownLinks = 10_000;
// Counts lookups of uuids missing from the mirror that the gateway does not know either: links made in the
// dashboard are always mirrored, and a lookup that finds its link is given back (links made by another
// integration, or the e2e suite's links made straight in the sandbox, never count).
export const payLinkLookupIpRule: TRateLimitRule = { limit: 30, windowMs: 15 * 60_000 };

const lookupKey = (ip: string | null) => `pay-lookup:ip:${ip ?? "unknown"}`;

const unknownLinks = new Map<string, number>();

/** Whether the gateway answered 404 for this uuid less than `unknownLinkTtlMs` ago (this instance only). */
export function isRecentlyUnknownLink(linkPaymentUuid: string, now = new Date()): boolean {
  const expiresAt = unknownLinks.get(linkPaymentUuid);
  if (expiresAt === undefined) return false;
  if (expiresAt > now.getTime()) return true;
  unknownLinks.delete(linkPaymentUuid);
  return false;
}

export function rememberUnknownLink(linkPaymentUuid: string, now = new Date()): void {
  unknownLinks.delete(linkPaymentUuid);
  unknownLinks.set(linkPaymentUuid, now.getTime() + unknownLinkTtlMs);
  while (unknownLinks.size > maxUnknownLinks) {
    const oldest = unknownLinks.keys().next().value;
    if (oldest === undefined) break;
    unknownLinks.delete(oldest);
  }
}

/** A link that now exists (created here or found upstream) must not stay answered as unknown. */
export function forgetUnknownLink(linkPaymentUuid: string): void {
  unknownLinks.delete(linkPaymentUuid);
}

export function countUnknownLinkCacheEntries(): number {
  return unknownLinks.size;
}

/**
 * Counts one upstream lookup of a link missing from the mirror for this address, before the call (parallel
 * lookups cannot slip past); throws RATE_LIMITED over the limit, and the gateway is not asked. The caller gives
 * the hit back (`releaseFoundLinkLookup`) when the gateway finds the link.
 */
export async function claimUnknownLinkLookup(ip: string | null, now = new Date()): Promise<void> {
  const window = await countRateLimitHit(lookupKey(ip), payLinkLookupIpRule, now);
  if (window.count > payLinkLookupIpRule.limit) {
    throw new AppError("RATE_LIMITED", "Too many payment links looked up from this address.");
  }
}

export async function releaseFoundLinkLookup(ip: string | null): Promise<void> {
  await refundRateLimitHit(lookupKey(ip));
}
