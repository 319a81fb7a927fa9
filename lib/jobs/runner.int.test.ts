import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPrismaClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createPgliteTestDatabase } from "@/lib/testing/pglite";
import { testDatabaseUrl } from "@/lib/testing/test-database";
import { defineJob, noRetry, type TJobDefinition } from "./define-job";
import { createJobRunner, type TJobRunner } from "./runner";
import { claimDueJobs, requestRun } from "./store";

const hour = 3_600_000;
const fast = { pollMs: 20, leaseMs: 600 };

function job(
  name: string,
  handler: TJobDefinition["handler"],
  overrides: Partial<TJobDefinition> = {},
): TJobDefinition {
  return defineJob({ name, intervalMs: () => hour, timeoutMs: 10_000, retry: noRetry, handler, ...overrides });
}

function runsOf(db: PrismaClient, jobName: string) {
  return db.jobRun.findMany({ where: { jobName }, orderBy: { startedAt: "asc" } });
}

describe("job runner on PostgreSQL", () => {
  const url = testDatabaseUrl();
  // Two instances of the app: each its own connection pool.
  const first = createPrismaClient({ kind: "postgres", url });
  const second = createPrismaClient({ kind: "postgres", url });
  let runners: TJobRunner[] = [];

  function startRunner(db: PrismaClient, jobs: TJobDefinition[], options: Partial<typeof fast> = {}) {
    const runner = createJobRunner({ db, jobs, ...fast, ...options });
    runners.push(runner);
    return runner.start().then(() => runner);
  }

  beforeEach(async () => {
    await first.$executeRaw`TRUNCATE "Job", "JobRun"`;
  });

  afterEach(async () => {
    await Promise.all(runners.map((runner) => runner.stop({ graceMs: 0 })));
    runners = [];
  });

  afterAll(async () => {
    await Promise.all([first.$disconnect(), second.$disconnect()]);
  });

  it("runs each due run once although two runners poll the same jobs", async () => {
    const calls = new Map<string, number>();
    const jobs = ["a", "b", "c", "d", "e", "f"].map((letter) =>
      job(
        `once-${letter}`,
        async () => {
          calls.set(letter, (calls.get(letter) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, 100));
        },
        { firstRunDelayMs: 0 },
      ),
    );
    // A lease a busy machine cannot outlive by lag: this is about two claims racing, not a lease taken over.
    const patient = { leaseMs: 10_000 };
    await Promise.all([startRunner(first, jobs, patient), startRunner(second, jobs, patient)]);
    await expect.poll(() => first.jobRun.count({ where: { outcome: "SUCCEEDED" } }), { timeout: 10_000 }).toBe(6);
    // Both keep polling; the next runs are an hour away.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([...calls.values()]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await first.jobRun.count()).toBe(6);
    const states = await first.job.findMany();
    for (const state of states) {
      expect(state).toMatchObject({ lastOutcome: "SUCCEEDED", leaseOwner: null, currentRunId: null });
      expect(state.nextRunAt!.getTime() - state.lastFinishedAt!.getTime()).toBeGreaterThan(hour - 5_000);
    }
  });

  it("never hands one due job to two concurrent claims", async () => {
    const jobs = Array.from({ length: 10 }, (_, index) =>
      job(`claim-${index}`, async () => {}, { firstRunDelayMs: 0 }),
    );
    // Rows exist and are due; nobody runs them: only the claims race.
    const runner = createJobRunner({ db: first, jobs, pollMs: hour });
    await runner.start();
    await runner.stop();
    const names = jobs.map((entry) => entry.name);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        claimDueJobs(index % 2 === 0 ? first : second, {
          runnerId: `racer-${index}`,
          names,
          busyNames: [],
          limit: 3,
          leaseMs: 60_000,
        }),
      ),
    );
    const claimed = claims.flat().map((run) => run.name);
    expect(claimed.sort()).toEqual([...names].sort());
    expect(await first.jobRun.count()).toBe(10);
  });

  it("takes an admin's run-now request in whichever runner polls first", async () => {
    let requestedBy: unknown;
    const manual = job(
      "manual-only",
      async (context) => {
        requestedBy = context.requestedBy;
      },
      { intervalMs: () => null },
    );
    await Promise.all([startRunner(first, [manual]), startRunner(second, [manual])]);
    expect(await first.job.findUnique({ where: { name: "manual-only" } })).toMatchObject({ nextRunAt: null });

    // Written by a third party (the web server's action), not by either runner.
    await requestRun(first, "manual-only", { id: null, email: "admin@example.com" });
    await expect.poll(() => first.jobRun.count({ where: { outcome: "SUCCEEDED" } }), { timeout: 5_000 }).toBe(1);
    const [run] = await runsOf(first, "manual-only");
    expect(run).toMatchObject({ trigger: "MANUAL", attempt: 1 });
    expect(requestedBy).toEqual({ id: null, email: "admin@example.com" });
    expect(await first.job.findUnique({ where: { name: "manual-only" } })).toMatchObject({
      runRequestedAt: null,
      runRequestedByEmail: null,
      nextRunAt: null,
    });
  });

  it("records a failure with its error and retries per the policy, then succeeds", async () => {
    let calls = 0;
    const flaky = job(
      "flaky",
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(`gateway down (${calls})`);
      },
      { firstRunDelayMs: 0, retry: { maxAttempts: 3, backoffMs: 200 } },
    );
    await startRunner(first, [flaky]);
    await expect
      .poll(() => first.job.findUnique({ where: { name: "flaky" } }), { timeout: 5_000 })
      .toMatchObject({ lastOutcome: "FAILED", lastError: "gateway down (1)", consecutiveFailures: 1, attempt: 1 });
    await expect.poll(() => runsOf(first, "flaky"), { timeout: 5_000 }).toHaveLength(3);
    await expect
      .poll(() => first.job.findUnique({ where: { name: "flaky" } }), { timeout: 5_000 })
      .toMatchObject({ lastOutcome: "SUCCEEDED", lastError: null, consecutiveFailures: 0, attempt: 0 });
    const runs = await runsOf(first, "flaky");
    expect(runs.map((run) => [run.trigger, run.attempt, run.outcome, run.error])).toEqual([
      ["SCHEDULE", 1, "FAILED", "gateway down (1)"],
      ["RETRY", 2, "FAILED", "gateway down (2)"],
      ["RETRY", 3, "SUCCEEDED", null],
    ]);
    // The first retry waited for the backoff, the second for twice as long.
    expect(runs[1]!.startedAt.getTime() - runs[0]!.finishedAt!.getTime()).toBeGreaterThanOrEqual(190);
    expect(runs[2]!.startedAt.getTime() - runs[1]!.finishedAt!.getTime()).toBeGreaterThanOrEqual(390);
  });

  it("gives up after maxAttempts and waits for the next scheduled run, counting the failures", async () => {
    const broken = job(
      "broken",
      async () => {
        throw new Error("always");
      },
      { firstRunDelayMs: 0, retry: { maxAttempts: 2, backoffMs: 50 } },
    );
    await startRunner(first, [broken]);
    await expect
      .poll(() => first.job.findUnique({ where: { name: "broken" } }), { timeout: 5_000 })
      .toMatchObject({ lastOutcome: "FAILED", consecutiveFailures: 2, attempt: 0 });
    const state = await first.job.findUniqueOrThrow({ where: { name: "broken" } });
    expect(state.nextRunAt!.getTime() - state.lastFinishedAt!.getTime()).toBeGreaterThan(hour - 5_000);
    expect(await runsOf(first, "broken")).toHaveLength(2);
  });

  it("fails a run that outlives its timeout and aborts its signal", async () => {
    let signal: AbortSignal | undefined;
    const slow = job(
      "slow",
      (context) => {
        signal = context.signal;
        return new Promise((resolve) => context.signal.addEventListener("abort", resolve));
      },
      { firstRunDelayMs: 0, timeoutMs: 200 },
    );
    await startRunner(first, [slow]);
    await expect
      .poll(() => first.job.findUnique({ where: { name: "slow" } }), { timeout: 5_000 })
      .toMatchObject({ lastOutcome: "FAILED", lastError: "Timed out after 0.2 s." });
    expect(signal?.aborted).toBe(true);
  });

  it("lets another runner take over the run of a runner that died, once its lease expires", async () => {
    const calls: string[] = [];
    const jobs = [job("orphan", async () => void calls.push("ran"), { firstRunDelayMs: 0 })];
    // A runner that claims the run and dies: no lease renewal, no outcome.
    const setup = createJobRunner({ db: first, jobs, pollMs: hour });
    await setup.start();
    await setup.stop();
    const [crashed] = await claimDueJobs(first, {
      runnerId: "crashed",
      names: ["orphan"],
      busyNames: [],
      limit: 1,
      leaseMs: 500,
    });
    const leaseExpiresAt = (await first.job.findUniqueOrThrow({ where: { name: "orphan" } })).leaseExpiresAt!;

    await startRunner(second, jobs);
    await expect.poll(() => calls, { timeout: 5_000 }).toEqual(["ran"]);
    const runs = await runsOf(first, "orphan");
    expect(runs.map((run) => [run.id, run.runnerId, run.outcome])).toEqual([
      [crashed!.runId, "crashed", "ABANDONED"],
      [runs[1]!.id, runners[0]!.id, expect.stringMatching(/RUNNING|SUCCEEDED/)],
    ]);
    expect(runs[1]!.startedAt.getTime()).toBeGreaterThanOrEqual(leaseExpiresAt.getTime());
    await expect
      .poll(() => first.job.findUnique({ where: { name: "orphan" } }))
      .toMatchObject({ lastOutcome: "SUCCEEDED", consecutiveFailures: 0, leaseOwner: null });
  });

  it("on stop, abandons a run that does not finish in time and releases its lease for another runner", async () => {
    let calls = 0;
    const jobs = [
      job(
        "long",
        async (context) => {
          calls += 1;
          if (calls === 1) await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
        },
        { firstRunDelayMs: 0 },
      ),
    ];
    const stopping = await startRunner(first, jobs, { leaseMs: 60_000 });
    await expect.poll(() => calls, { timeout: 5_000 }).toBe(1);
    await stopping.stop({ graceMs: 50 });
    expect(await first.job.findUnique({ where: { name: "long" } })).toMatchObject({
      lastOutcome: "ABANDONED",
      leaseOwner: null,
      leaseExpiresAt: null,
      consecutiveFailures: 0,
    });
    // Long before the 60-second lease would have expired.
    await startRunner(second, jobs);
    await expect
      .poll(() => first.job.findUnique({ where: { name: "long" } }), { timeout: 5_000 })
      .toMatchObject({ lastOutcome: "SUCCEEDED" });
    expect((await runsOf(first, "long")).map((run) => run.outcome)).toEqual(["ABANDONED", "SUCCEEDED"]);
  });
});

describe("job runner on PGlite (one connection, one process)", () => {
  it("runs jobs beside each other, with the transaction client passed down", async () => {
    const database = await createPgliteTestDatabase();
    const { db } = database;
    const jobs = [
      job(
        "in-transaction",
        async () => {
          // Inside the transaction only `tx` may be used: the single connection is busy.
          await db.$transaction(async (tx) => {
            await tx.$executeRaw`SELECT pg_sleep(0.2)`;
            await tx.auditLog.count();
          });
        },
        { firstRunDelayMs: 0 },
      ),
      job("plain", async () => db.job.count(), { firstRunDelayMs: 0 }),
    ];
    const runner = createJobRunner({ db, jobs, pollMs: 20, leaseMs: 150 });
    try {
      await runner.start();
      await expect.poll(() => db.jobRun.count({ where: { outcome: "SUCCEEDED" } }), { timeout: 10_000 }).toBe(2);
      await requestRun(db, "plain", { id: null, email: "admin@example.com" });
      runner.wake();
      await expect.poll(() => db.jobRun.count({ where: { outcome: "SUCCEEDED" } }), { timeout: 10_000 }).toBe(3);
      expect(await db.job.findMany({ orderBy: { name: "asc" } })).toMatchObject([
        { name: "in-transaction", lastOutcome: "SUCCEEDED", consecutiveFailures: 0 },
        { name: "plain", lastOutcome: "SUCCEEDED", runRequestedAt: null },
      ]);
    } finally {
      await runner.stop();
      await database.close();
    }
  });
});
