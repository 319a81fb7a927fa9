import { z } from "zod";
import { defineEnvConcern, EnvValidationError, parseEnvConcern } from "./define-env";

export const jobsEnvConcern = defineEnvConcern("jobs", {
  JOBS_MODE: z
    .enum(["web", "worker", "off"])
    .default("web")
    .describe(
      "Who runs background jobs: web (the web server runs them; the default, and the only choice with the embedded database), worker (a separate `npm run worker` process runs them; needs DATABASE_URL), or off (this web server runs none).",
    ),
});

export type TJobsEnv = z.infer<typeof jobsEnvConcern.schema>;

// PGlite admits one process, so no worker could open it beside the web server: `worker` would run no job ever.
export function getJobsEnv(env: Record<string, string | undefined> = process.env): TJobsEnv {
  const parsed = parseEnvConcern(jobsEnvConcern, env);
  if (parsed.JOBS_MODE === "worker" && !env.DATABASE_URL?.trim()) {
    throw new EnvValidationError([
      {
        variable: "JOBS_MODE",
        problem: "is worker, but DATABASE_URL is unset (the embedded database admits one process)",
        fix: "Set JOBS_MODE=web (or leave it unset) with the embedded database, or set DATABASE_URL to PostgreSQL.",
      },
    ]);
  }
  return parsed;
}
