import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { log } from "@/lib/log";
import { countJobRun } from "@/lib/telemetry/metrics";
import { withSpan } from "@/lib/telemetry/tracing";
import { retryDelayMs, type TJobDefinition } from "./define-job";
import {
  claimDueJobs,
  finishRun,
  renewLease,
  syncJob,
  type TClaimedRun,
  type TJobsDb,
  type TRunOutcome,
} from "./store";

export type TJobRunnerOptions = {
  db: TJobsDb;
  jobs: TJobDefinition[];
  pollMs?: number;
  // How long a run stays claimed without a renewal; renewed every third of it while the handler runs.
  leaseMs?: number;
  maxConcurrentRuns?: number;
  runnerId?: string;
};

export type TJobRunner = {
  readonly id: string;
  start: () => Promise<void>;
  wake: () => void;
  stop: (options?: { graceMs?: number }) => Promise<void>;
};

type ActiveRun = { run: TClaimedRun; settled: Promise<void>; abandon: () => Promise<void> };

class JobTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`Timed out after ${timeoutMs / 1_000} s.`);
    this.name = "JobTimeoutError";
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

export function createJobRunner(options: TJobRunnerOptions): TJobRunner {
  const { db, jobs } = options;
  const pollMs = options.pollMs ?? 2_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const maxConcurrentRuns = options.maxConcurrentRuns ?? 4;
  const id = options.runnerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const jobsByName = new Map(jobs.map((job) => [job.name, job]));
  // Names whose handler has not settled yet, even after a timeout: never two of one job in a process.
  const active = new Map<string, ActiveRun>();
  let timer: NodeJS.Timeout | undefined;
  let isStopping = false;
  let currentPoll: Promise<void> | undefined;
  let isSynced = false;

  async function syncJobs() {
    for (const job of jobs) await syncJob(db, job);
    isSynced = true;
  }

  function schedulePoll(delayMs: number) {
    if (isStopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => void poll(), delayMs);
    timer.unref();
  }

  function poll(): Promise<void> {
    if (isStopping) return Promise.resolve();
    currentPoll ??= claimAndLaunch().finally(() => {
      currentPoll = undefined;
      schedulePoll(pollMs);
    });
    return currentPoll;
  }

  async function claimAndLaunch() {
    try {
      if (!isSynced) await syncJobs();
      const claimed = await claimDueJobs(db, {
        runnerId: id,
        names: [...jobsByName.keys()],
        busyNames: [...active.keys()],
        limit: maxConcurrentRuns - active.size,
        leaseMs,
      });
      for (const run of claimed) launch(run);
    } catch (error) {
      log.error({ err: error, runnerId: id }, "jobs: claiming due jobs failed");
    }
  }

  function launch(run: TClaimedRun) {
    const job = jobsByName.get(run.name);
    if (!job) return;
    const controller = new AbortController();
    let isDone = false;
    let markAbandoned: () => void = () => {};
    const abandoned = new Promise<"abandoned">((resolve) => (markAbandoned = () => resolve("abandoned")));
    let timeoutTimer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timeoutTimer = setTimeout(() => resolve("timeout"), job.timeoutMs);
    });
    const heartbeat = setInterval(() => {
      renewLease(db, run, leaseMs).then(
        (isHeld) => {
          if (isHeld || isDone) return;
          log.warn({ job: run.name, runId: run.runId }, "jobs: the lease was taken over; stopping the run");
          isDone = true;
          controller.abort(new Error("The lease was taken over by another runner."));
        },
        (error: unknown) => log.warn({ err: error, job: run.name }, "jobs: renewing a lease failed"),
      );
    }, leaseMs / 3);
    heartbeat.unref();

    const work = Promise.resolve()
      .then(() =>
        withSpan(
          `job ${run.name}`,
          { "job.name": run.name, "job.trigger": run.trigger, "job.attempt": run.attempt },
          () =>
            job.handler({
              signal: controller.signal,
              runId: run.runId,
              trigger: run.trigger,
              attempt: run.attempt,
              requestedBy: run.requestedByEmail ? { id: run.requestedById, email: run.requestedByEmail } : null,
            }),
        ),
      )
      .then(
        (value) => ({ isOk: true as const, value }),
        (error: unknown) => ({ isOk: false as const, error }),
      );

    const record = async (outcome: TRunOutcome) => {
      countJobRun(run.name, outcome.outcome);
      try {
        if (!(await finishRun(db, run, outcome)))
          log.warn({ job: run.name, runId: run.runId }, "jobs: the run ended after its lease was taken over");
      } catch (error) {
        // The lease expires on its own; the next claim records this run as abandoned.
        log.error({ err: error, job: run.name, runId: run.runId }, "jobs: recording a run failed");
      }
    };

    const settled = (async () => {
      const result = await Promise.race([work, timedOut, abandoned]);
      clearTimeout(timeoutTimer);
      clearInterval(heartbeat);
      if (isDone) return; // the lease was lost: the new holder records the job's state
      isDone = true;
      if (result === "abandoned") {
        controller.abort(new Error("The runner is stopping."));
        await record({
          outcome: "ABANDONED",
          error: "The runner stopped before the run ended; the next runner starts it again.",
          attempt: run.attempt - 1,
          failures: "keep",
          nextRunInMs: 0,
          holdLeaseMs: 0,
        });
        return;
      }
      const isTimeout = result === "timeout";
      if (!isTimeout && result.isOk) {
        log.debug({ job: run.name, runId: run.runId, result: result.value }, "jobs: run succeeded");
        await record({
          outcome: "SUCCEEDED",
          error: null,
          attempt: 0,
          failures: "reset",
          nextRunInMs: job.intervalMs(),
          holdLeaseMs: 0,
        });
        return;
      }
      const error = isTimeout ? new JobTimeoutError(job.timeoutMs) : result.error;
      if (isTimeout) controller.abort(error);
      const retryInMs = retryDelayMs(job.retry, run.attempt);
      log.error({ err: error, job: run.name, runId: run.runId, attempt: run.attempt, retryInMs }, "jobs: run failed");
      await record({
        outcome: "FAILED",
        error: describeError(error),
        attempt: retryInMs === null ? 0 : run.attempt,
        failures: "increment",
        nextRunInMs: retryInMs ?? job.intervalMs(),
        holdLeaseMs: isTimeout ? leaseMs : 0,
      });
    })();

    const entry: ActiveRun = {
      run,
      settled: settled
        .then(() => work)
        .then(() => {
          active.delete(run.name);
          if (!isStopping) schedulePoll(0);
        }),
      abandon: async () => {
        markAbandoned();
        await settled;
      },
    };
    active.set(run.name, entry);
  }

  return {
    id,
    async start() {
      isStopping = false;
      // A database that is down at start is retried at each poll.
      await syncJobs().catch((error: unknown) =>
        log.error({ err: error, runnerId: id }, "jobs: syncing the jobs failed"),
      );
      log.info({ runnerId: id, jobs: [...jobsByName.keys()] }, "jobs: runner started");
      schedulePoll(0);
    },
    wake() {
      schedulePoll(0);
    },
    async stop({ graceMs = 10_000 } = {}) {
      isStopping = true;
      clearTimeout(timer);
      // A claim in flight launches its runs first, so they are abandoned below rather than left leased.
      await currentPoll;
      const runs = [...active.values()];
      if (runs.length > 0) {
        let graceTimer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, graceMs)));
        await Promise.race([Promise.all(runs.map((entry) => entry.settled)), grace]);
        clearTimeout(graceTimer);
        await Promise.all(runs.map((entry) => entry.abandon()));
      }
      log.info({ runnerId: id }, "jobs: runner stopped");
    },
  };
}
