import "server-only";
import { getReconcileEnv } from "@/lib/config/reconcile-env";
import { log } from "@/lib/log";
import { runReconciliation } from "./reconcile";

// Soon after start, so a restart after an outage heals quickly, but not in the start-up rush.
const firstRunDelayMs = 15_000;

const state = globalThis as typeof globalThis & { __paymentsReconcileTimer?: NodeJS.Timeout };

/**
 * Runs reconciliation every RECONCILE_INTERVAL_SECONDS in this process (0: never). Every instance
 * schedules it; the advisory lock in runReconciliation lets one of them run at a time. Called
 * from instrumentation.ts; a second call (dev reloads) keeps the first schedule.
 */
export function startReconciliationScheduler(): void {
  const { RECONCILE_INTERVAL_SECONDS: intervalSeconds } = getReconcileEnv();
  if (intervalSeconds === 0 || state.__paymentsReconcileTimer) return;
  let isRunning = false;
  const tick = async () => {
    if (isRunning) return;
    isRunning = true;
    try {
      const result = await runReconciliation({ trigger: "schedule" });
      if (result.status === "skipped") log.debug("reconciliation skipped: another instance is running it");
    } catch (error) {
      log.error({ err: error }, "reconciliation run failed");
    } finally {
      isRunning = false;
    }
  };
  const first = setTimeout(
    () => {
      void tick();
      state.__paymentsReconcileTimer = setInterval(() => void tick(), intervalSeconds * 1_000);
      state.__paymentsReconcileTimer.unref();
    },
    Math.min(firstRunDelayMs, intervalSeconds * 1_000),
  );
  first.unref();
  state.__paymentsReconcileTimer = first;
  log.info({ intervalSeconds }, "reconciliation scheduled");
}
