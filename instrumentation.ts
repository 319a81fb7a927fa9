// Next.js calls register() once when a server starts: validate the environment there so a
// missing or malformed variable stops the server with a message naming it.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { validateServerEnvOrExit } = await import("./lib/config/validate-env");
    validateServerEnvOrExit();
    // Background jobs belong to a serving process, not to the build's page-rendering workers.
    if (process.env.NEXT_PHASE !== "phase-production-build") {
      const { startReconciliationScheduler } = await import("./lib/reconcile/scheduler");
      startReconciliationScheduler();
      const { startWebhookRetryWorker } = await import("./lib/webhooks/retry-worker");
      startWebhookRetryWorker();
    }
  }
}
