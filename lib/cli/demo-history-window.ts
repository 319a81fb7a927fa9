import { occurredAtBoundsProblem } from "@/lib/pos-sdk/schemas";

const seedRunMarginMs = 60 * 60_000;

// The POS backend refuses a sale older than 30 days; the margin covers the seed's own run time.
export function isReportableByPos(at: number, now: Date): boolean {
  return occurredAtBoundsProblem(new Date(at).toISOString(), new Date(now.getTime() + seedRunMarginMs)) === null;
}
