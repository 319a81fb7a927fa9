import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workerMetricsPort } from "@/lib/config/telemetry-env";
import { countJobRun } from "./metrics";
import { startMetricsServer, type TMetricsServer } from "./metrics-server";

const token = "worker-metrics-token-for-the-test";

describe("the worker's GET /metrics", () => {
  let server: TMetricsServer;
  let previousToken: string | undefined;
  beforeAll(async () => {
    previousToken = process.env.METRICS_TOKEN;
    process.env.METRICS_TOKEN = token;
    server = await startMetricsServer(0, "127.0.0.1");
  });
  afterAll(async () => {
    await server.close();
    if (previousToken === undefined) delete process.env.METRICS_TOKEN;
    else process.env.METRICS_TOKEN = previousToken;
  });
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

  it("serves the job counters over HTTP to the bearer of METRICS_TOKEN only", async () => {
    countJobRun("webhook-retry", "SUCCEEDED");
    expect((await fetch(url("/metrics"))).status).toBe(401);
    expect((await fetch(url("/metrics"), { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
    const scrape = await fetch(url("/metrics"), { headers: { authorization: `Bearer ${token}` } });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get("content-type")).toContain("text/plain");
    expect(await scrape.text()).toMatch(/^payments_job_runs_total\{job="webhook-retry",outcome="SUCCEEDED"\} [1-9]/m);
  });

  it("answers 404 elsewhere and 405 to anything but GET", async () => {
    expect((await fetch(url("/api/health"))).status).toBe(404);
    expect((await fetch(url("/metrics?x=1"), { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // A target no URL parser takes: answered, and the server lives on.
    const statusLine = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1", () => socket.write("GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n"));
      socket.once("data", (data) => {
        resolve(String(data).split("\r\n")[0]!);
        socket.end();
      });
      socket.once("error", reject);
    });
    expect(statusLine).toMatch(/^HTTP\/1\.1 (400|404)/);
    const post = await fetch(url("/metrics"), { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });
});

describe("WORKER_METRICS_PORT", () => {
  it("is off when unset, and refused without the token that would guard it", () => {
    expect(workerMetricsPort({})).toBeNull();
    expect(workerMetricsPort({ WORKER_METRICS_PORT: "9464", METRICS_TOKEN: token })).toBe(9464);
    expect(() => workerMetricsPort({ WORKER_METRICS_PORT: "9464" })).toThrow(/METRICS_TOKEN is not/);
    expect(() => workerMetricsPort({ WORKER_METRICS_PORT: "70000", METRICS_TOKEN: token })).toThrow();
  });
});
