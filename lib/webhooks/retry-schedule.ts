// The gateway gives up after ~8 minutes; ours goes on for about a day, then FAILED awaits a manual replay.
const delaysMs = [5_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000];
export const maxApplyAttempts = 30;

export function nextApplyAttemptAt(attempts: number, now: Date): Date | null {
  if (attempts >= maxApplyAttempts) return null;
  const delay = delaysMs[Math.min(Math.max(attempts, 1), delaysMs.length) - 1]!;
  return new Date(now.getTime() + delay);
}
