// When the app tries again to apply a verified delivery whose apply failed (the database or the
// gateway was down). The gateway's own schedule ends after about 8 minutes; ours goes on for about a
// day, after which the delivery stays FAILED for a manual replay (reconciliation heals the mirror anyway).
const delaysMs = [5_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000];
export const maxApplyAttempts = 30;

/** The moment of the next attempt after `attempts` failed ones, or null once the app gives up. */
export function nextApplyAttemptAt(attempts: number, now: Date): Date | null {
  if (attempts >= maxApplyAttempts) return null;
  const delay = delaysMs[Math.min(Math.max(attempts, 1), delaysMs.length) - 1]!;
  return new Date(now.getTime() + delay);
}
