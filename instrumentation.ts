// Next.js calls register() once when a server starts: validate the environment there so a
// missing or malformed variable stops the server with a message naming it.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Before the first request: the client address for limits and the audit log comes from it.
    const { installPeerAddressHeader } = await import("./lib/auth/peer-address");
    installPeerAddressHeader();
    const { validateServerEnvOrExit } = await import("./lib/config/validate-env");
    await validateServerEnvOrExit();
    // Background jobs belong to a serving process, not to the build's page-rendering workers.
    if (process.env.NEXT_PHASE !== "phase-production-build") {
      // Request metrics always; spans exported only when the OTEL_* variables ask (docs/operations.md).
      const { startTelemetry } = await import("./lib/telemetry/start");
      startTelemetry();
      // Reconciliation, webhook retries and the other jobs of lib/jobs/registry.ts (JOBS_MODE).
      const { startJobsInWebServer } = await import("./lib/jobs/process-runner");
      await startJobsInWebServer();
    }
  }
}
