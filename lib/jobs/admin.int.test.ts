import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/db/client";
import { connectPostgresTestDatabase } from "@/lib/testing/test-database";
import { listJobsForAdmin, requestJobRunNow } from "./admin";
import { jobRegistry } from "./registry";

describe("jobs admin", () => {
  const database = connectPostgresTestDatabase();
  const context = { actor: { id: null, email: "admin@example.com" }, ip: "127.0.0.1", userAgent: "test" };

  beforeEach(async () => {
    await database.db.$executeRaw`TRUNCATE "Job", "JobRun", "AuditLog"`;
  });

  afterAll(async () => {
    await database.close();
    await disconnectDb();
  });

  it("lists every registered job, also before any runner has recorded it", async () => {
    const { mode, jobs } = await listJobsForAdmin();
    expect(mode).toBe("web");
    expect(jobs.map((job) => job.name)).toEqual(jobRegistry.map((job) => job.name));
    expect(jobs[0]).toMatchObject({
      lastOutcome: null,
      consecutiveFailures: 0,
      isRunning: false,
      runRequestedAt: null,
    });
  });

  it("records an audited run-now request for any runner, and refuses an unknown job", async () => {
    await requestJobRunNow("reconciliation", context);
    const { jobs } = await listJobsForAdmin();
    expect(jobs.find((job) => job.name === "reconciliation")).toMatchObject({
      runRequestedAt: expect.any(Date),
      runRequestedByEmail: "admin@example.com",
    });
    expect(await database.db.auditLog.findMany()).toMatchObject([
      {
        action: "job.run_requested",
        resourceType: "job",
        resourceId: "reconciliation",
        actorEmail: "admin@example.com",
      },
    ]);
    await expect(requestJobRunNow("no-such-job", context)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
