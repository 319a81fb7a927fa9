import "server-only";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { getAlertsEnv } from "@/lib/config/alerts-env";
import { getReconcileEnv } from "@/lib/config/reconcile-env";
import { refreshOverviewDays } from "@/lib/overview/rollup";
import { runPosMatching } from "@/lib/pos/match";
import { runReconciliation } from "@/lib/reconcile/reconcile";
import { runRetention } from "@/lib/retention/retention";
import { retireDueWebhooks } from "@/lib/webhooks/admin";
import { runWebhookRetryPass } from "@/lib/webhooks/retry-worker";
import { defineJob, noRetry } from "./define-job";

// A new entry also needs its name under `jobs.names` in lib/i18n/messages/*.json (docs/jobs.md).
export const jobRegistry = [
  defineJob({
    name: "reconciliation",
    intervalMs: () => {
      const seconds = getReconcileEnv().RECONCILE_INTERVAL_SECONDS;
      return seconds === 0 ? null : seconds * 1_000;
    },
    // Soon after a start, so a restart after an outage heals quickly, but not in the start-up rush.
    firstRunDelayMs: 15_000,
    timeoutMs: 30 * 60_000,
    retry: { maxAttempts: 3, backoffMs: 60_000 },
    handler: async ({ trigger, requestedBy }) => {
      const result = await runReconciliation({
        trigger: trigger === "MANUAL" ? "manual" : "schedule",
        actor: requestedBy ?? undefined,
      });
      // Skipped: an admin's "reconcile now" on /webhooks holds the reconciliation lock right now.
      if (result.status === "skipped") return { status: "skipped" };
      if (result.run.status === "FAILED") {
        const firstError = result.run.error?.split("\n")[0] ?? "unknown error";
        throw new Error(`Some gateway reads failed (${firstError}); see reconciliation run ${result.run.id}.`);
      }
      return { runId: result.run.id, healedCount: result.run.healedCount };
    },
  }),
  defineJob({
    name: "webhook-retry",
    intervalMs: () => 5_000,
    firstRunDelayMs: 5_000,
    // The pass's own row lease is 2 minutes.
    timeoutMs: 2 * 60_000,
    // The next pass is 5 seconds away anyway.
    retry: noRetry,
    handler: () => runWebhookRetryPass(),
  }),
  defineJob({
    // Even when nobody opens /webhooks.
    name: "webhook-retire",
    intervalMs: () => 30_000,
    firstRunDelayMs: 10_000,
    timeoutMs: 60_000,
    retry: noRetry,
    handler: () => retireDueWebhooks(),
  }),
  defineJob({
    name: "pos-matching",
    intervalMs: () => 5 * 60_000,
    firstRunDelayMs: 60_000,
    timeoutMs: 10 * 60_000,
    retry: noRetry,
    handler: () => runPosMatching(),
  }),
  defineJob({
    // The home overview's closed days (lib/overview/rollup.ts); until it runs, those days are computed live.
    name: "overview-rollup",
    intervalMs: () => 10 * 60_000,
    firstRunDelayMs: 30_000,
    timeoutMs: 10 * 60_000,
    retry: noRetry,
    handler: ({ signal }) => refreshOverviewDays({ signal }),
  }),
  defineJob({
    name: "retention",
    intervalMs: () => 6 * 60 * 60_000,
    firstRunDelayMs: 5 * 60_000,
    timeoutMs: 30 * 60_000,
    retry: { maxAttempts: 3, backoffMs: 5 * 60_000 },
    handler: ({ signal }) => runRetention({ signal }),
  }),
  defineJob({
    name: "alerts-evaluate",
    intervalMs: () => {
      const seconds = getAlertsEnv().ALERTS_EVALUATE_INTERVAL_SECONDS;
      return seconds === 0 ? null : seconds * 1_000;
    },
    firstRunDelayMs: 20_000,
    timeoutMs: 5 * 60_000,
    // The next evaluation is the retry.
    retry: noRetry,
    handler: () => evaluateAlerts(),
  }),
];
