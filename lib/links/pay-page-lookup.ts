import "server-only";
import { countRateLimitHit, refundRateLimitHit } from "@/lib/auth/rate-limit";
import type { TRateLimitRule, TRateLimitWindow } from "@/lib/auth/rate-limit-window";
import { AppError } from "@/lib/errors";

// An unmirrored /pay/{uuid} costs an mTLS call: recent unknowns are answered from memory, lookups limited per address.

const unknownLinkTtlMs = 60_000;
// Bounded: past this many entries the oldest (Map insertion order) is dropped.
const maxUnknownLinks = 10_000;
// Counts only lookups the gateway does not know either: dashboard links are mirrored and found links are given back.
export const payLinkLookupIpRule: TRateLimitRule = { limit: 30, windowMs: 15 * 60_000 };

const lookupKey = (ip: string | null) => `pay-lookup:ip:${ip ?? "unknown"}`;

const unknownLinks = new Map<string, number>();

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

export function forgetUnknownLink(linkPaymentUuid: string): void {
  unknownLinks.delete(linkPaymentUuid);
}

// Counted before the call (no parallel slip); given back (`releaseFoundLinkLookup`) when the gateway finds the link.
export async function claimUnknownLinkLookup(ip: string | null, now = new Date()): Promise<TRateLimitWindow> {
  const window = await countRateLimitHit(lookupKey(ip), payLinkLookupIpRule, now);
  if (window.count > payLinkLookupIpRule.limit) {
    throw new AppError("RATE_LIMITED", "links.errors.tooManyLookups");
  }
  return window;
}

export async function releaseFoundLinkLookup(ip: string | null, counted: TRateLimitWindow): Promise<void> {
  await refundRateLimitHit(lookupKey(ip), counted);
}
