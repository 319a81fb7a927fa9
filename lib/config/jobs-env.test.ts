import { describe, expect, it } from "vitest";
import { EnvValidationError } from "./define-env";
import { getJobsEnv } from "./jobs-env";

describe("jobs environment", () => {
  it("runs the jobs in the web server by default", () => {
    expect(getJobsEnv({})).toEqual({ JOBS_MODE: "web" });
  });

  it("accepts worker on PostgreSQL only, and refuses an unknown mode", () => {
    expect(getJobsEnv({ JOBS_MODE: "worker", DATABASE_URL: "postgresql://u:p@127.0.0.1/db" }).JOBS_MODE).toBe("worker");
    expect(() => getJobsEnv({ JOBS_MODE: "worker" })).toThrow(/DATABASE_URL is unset/);
    expect(getJobsEnv({ JOBS_MODE: "off" }).JOBS_MODE).toBe("off");
    expect(() => getJobsEnv({ JOBS_MODE: "cron" })).toThrow(EnvValidationError);
  });
});
