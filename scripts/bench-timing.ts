// Timing helpers of the in-process benchmarks (bench:gateway, bench:terminal, bench:lists): sequential calls after a warm-up,
// p50 and p99 in milliseconds.

import { percentile } from "./bench-common";

export type TTimingOptions = { requests: number; warmup: number };
export type TTiming = { label: string; p50: number; p99: number };

export async function time(label: string, options: TTimingOptions, call: () => Promise<void>): Promise<TTiming> {
  for (let index = 0; index < options.warmup; index += 1) await call();
  const samples: number[] = [];
  for (let index = 0; index < options.requests; index += 1) {
    const startedAt = performance.now();
    await call();
    samples.push(performance.now() - startedAt);
  }
  samples.sort((a, b) => a - b);
  return { label, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

export function formatMs(ms: number): string {
  return `${ms.toFixed(2).padStart(7)} ms`;
}

/** Prints both timings and what the app adds over the direct call, against a goal at p50. */
export function printComparison(direct: TTiming, app: TTiming, goalMs: number, note: string): void {
  for (const result of [direct, app])
    console.log(`  ${result.label.padEnd(66)} p50 ${formatMs(result.p50)}   p99 ${formatMs(result.p99)}`);
  const added = app.p50 - direct.p50;
  console.log(`  ${"app adds".padEnd(66)} p50 ${formatMs(added)}   p99 ${formatMs(app.p99 - direct.p99)}`);
  console.log(`  goal: under ${goalMs} ms at p50 -> ${added < goalMs ? "met" : "NOT met"} (${note})`);
}

/**
 * Times calls taking turns, for calls that change what they call (each payment grows the gateway's store):
 * all see the same state, so none pays for another's growth.
 */
export async function timeAlternating<const TCalls extends readonly (() => Promise<void>)[]>(
  labels: { [K in keyof TCalls]: string },
  options: TTimingOptions,
  calls: TCalls,
): Promise<{ -readonly [K in keyof TCalls]: TTiming }> {
  const samples: number[][] = calls.map(() => []);
  for (let index = 0; index < options.warmup + options.requests; index += 1) {
    // Each turn starts one call later, so no call always runs right after the same one (warm caches, a busy peer).
    for (let step = 0; step < calls.length; step += 1) {
      const side = (index + step) % calls.length;
      const startedAt = performance.now();
      await calls[side]!();
      if (index >= options.warmup) samples[side]!.push(performance.now() - startedAt);
    }
  }
  return samples.map((sideSamples, side) => {
    const sorted = sideSamples.sort((a, b) => a - b);
    return { label: labels[side]!, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }) as { -readonly [K in keyof TCalls]: TTiming };
}
