// `npm run bench:gateway`: a Pix charge read direct from its own sandbox vs through the app (docs/gateway.md).
// --mode=in-process (default) calls getPixChargeView(txid, { refresh: true }); --mode=server reads the route on
// `next start` (--port, 3200) from an existing build. --requests=2000 --warmup=200; --sandbox-port (default: any
// free one); --cpu-prof=DIR writes a CPU profile of `next start` there. The two reads take turns, so both see the
// same machine. Goal: the app adds < 2 ms at p50 (no upstream change: nothing is written).
// Server mode starts a second `next start` from the same build on --port + 1 with TELEMETRY_DISABLED=1, and the first
// one exports its spans over OTLP/HTTP to a sink in this process (--otlp-port, default any free one): metrics and
// tracing must add < 0.3 ms at p50 (docs/operations.md); the run exits 1 when they do not.
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { Agent, request } from "undici";
import { startService, stopAll, waitForHttp } from "@/lib/cli/processes";
import { applyMigrations } from "@/lib/db/migrate";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { clientTls, startSandbox } from "@/sandbox/test/harness";
import { formatMs, printComparison, timeAlternating } from "./bench-timing";

type Options = {
  mode: "in-process" | "server";
  requests: number;
  warmup: number;
  port: number;
  sandboxPort?: number;
  cpuProfileDir?: string;
  otlpPort: number;
};

const goalMs = 2;
const telemetryGoalMs = 0.3;
const benchMetricsToken = randomBytes(24).toString("hex");

function readOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const mode = value("mode") ?? "in-process";
  if (mode !== "in-process" && mode !== "server") throw new Error("--mode must be in-process or server");
  return {
    mode,
    requests: Number(value("requests") ?? 2000),
    warmup: Number(value("warmup") ?? 200),
    port: Number(value("port") ?? 3200),
    sandboxPort: value("sandbox-port") ? Number(value("sandbox-port")) : undefined,
    cpuProfileDir: value("cpu-prof"),
    otlpPort: Number(value("otlp-port") ?? 0),
  };
}

// CPU seconds (user + system) of a process group, from /proc (Linux): what the app spends per read, which a busy
// machine's scheduling does not blur the way it blurs latency. Null elsewhere.
function processGroupCpuSeconds(pgid: number): number | null {
  if (!existsSync("/proc/self/stat")) return null;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100; // USER_HZ
}

// An OTLP/HTTP collector that accepts and counts: spans really leave the server, and cost nothing here to judge.
async function startOtlpSink(port: number) {
  const received = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on("data", (chunk: Buffer) => {
      received.bytes += chunk.length;
    });
    req.on("end", () => {
      received.requests += 1;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const { OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_TRACES_EXPORTER, ...envWithoutOtel } =
  process.env;

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  if (options.mode === "server" && !existsSync(".next/BUILD_ID"))
    throw new Error("--mode=server needs a production build: run `next build` first.");
  const database = await createThrowawayDatabase("payments_bench");
  const sandbox = await startSandbox({ port: options.sandboxPort });
  let otlpSinkClose: (() => Promise<void>) | undefined;
  try {
    await applyMigrations({ kind: "postgres", url: database.url });
    const authSecret = randomBytes(32).toString("base64");
    const appUrl = `http://127.0.0.1:${options.port}`;
    // Set before the app's modules read them (they are imported below, on purpose).
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      AUTH_SECRET: authSecret,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      APP_URL: appUrl,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    });
    const { useGateway } = await import("@/lib/testing/gateway-sandbox");
    await useGateway(sandbox.baseUrl, sandbox.certsDir);
    const { db, disconnectDb } = await import("@/lib/db/client");
    const { createPixCharge, getPixChargeView } = await import("@/lib/pix/charges");
    const { ZCreatePixChargeInput } = await import("@/lib/pix/schemas");
    const { changeChannel } = await import("@/lib/events/bus");

    const user = await db.user.create({ data: { email: "bench@example.com", name: "Bench", passwordHash: "unused" } });
    const actor = { actor: { id: user.id, email: user.email } };
    const { txid } = await createPixCharge(
      ZCreatePixChargeInput.parse({ idempotencyKey: randomUUID(), amountCents: 12_345, expirationSeconds: 3600 }),
      actor,
    );
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    // The mirror takes the payment now; every timed read then finds upstream unchanged.
    await getPixChargeView(txid, { refresh: true });

    const directAgent = new Agent({ connect: clientTls(sandbox.certsDir, "merchant"), connections: 1 });
    const readDirect = async () => {
      const response = await request(`${sandbox.baseUrl}/api/v1/pix-charges/${txid}`, { dispatcher: directAgent });
      if (response.statusCode !== 200) throw new Error(`sandbox answered ${response.statusCode}`);
      await response.body.json();
    };
    const directLabel = "direct  sandbox GET /api/v1/pix-charges/{txid}";

    let readApp: () => Promise<void>;
    let appLabel: string;
    // Server mode also times what any request to `next start` costs (routing, one database round trip, JSON), the
    // floor under which no route of this server can go, in the same turns.
    let readFloor: (() => Promise<void>) | undefined;
    let appAgent: Agent | undefined;
    let appCpuSeconds = (): number | null => null;
    let offCpuSeconds = (): number | null => null;
    let readAppWithoutTelemetry: (() => Promise<void>) | undefined;
    let readFloorWithoutTelemetry: (() => Promise<void>) | undefined;
    let otlpSink: Awaited<ReturnType<typeof startOtlpSink>> | undefined;
    if (options.mode === "in-process") {
      appLabel = "app     getPixChargeView(txid, { refresh: true }) in-process";
      readApp = async () => {
        if (!(await getPixChargeView(txid, { refresh: true }))) throw new Error("charge not found");
      };
    } else {
      const { encode } = await import("next-auth/jwt");
      const cookie = `next-auth.session-token=${await encode({ token: { sub: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion }, secret: authSecret })}`;
      const profiling = options.cpuProfileDir
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${options.cpuProfileDir}` }
        : {};
      otlpSink = await startOtlpSink(options.otlpPort);
      otlpSinkClose = otlpSink.close;
      const server = startService("app", "next", ["start", "--hostname", "127.0.0.1", "--port", String(options.port)], {
        // JOBS_MODE=off: background jobs (reconciliation reads the sandbox too) would run inside the timed server.
        env: {
          ...envWithoutOtel,
          PORT: String(options.port),
          ALLOW_INSECURE_LOCAL_GATEWAY: "1",
          JOBS_MODE: "off",
          METRICS_TOKEN: benchMetricsToken,
          OTEL_EXPORTER_OTLP_ENDPOINT: otlpSink.url,
          ...profiling,
        },
      });
      const offPort = options.port + 1;
      const offUrl = `http://127.0.0.1:${offPort}`;
      const serverOff = startService(
        "app-off",
        "next",
        ["start", "--hostname", "127.0.0.1", "--port", String(offPort)],
        {
          env: {
            ...envWithoutOtel,
            APP_URL: offUrl,
            PORT: String(offPort),
            ALLOW_INSECURE_LOCAL_GATEWAY: "1",
            JOBS_MODE: "off",
            TELEMETRY_DISABLED: "1",
          },
        },
      );
      await waitForHttp(server, `${appUrl}/api/health`);
      await waitForHttp(serverOff, `${offUrl}/api/health`);
      const serverPid = server.child.pid;
      if (serverPid) appCpuSeconds = () => processGroupCpuSeconds(serverPid);
      const offPid = serverOff.child.pid;
      if (offPid) offCpuSeconds = () => processGroupCpuSeconds(offPid);
      const dispatcher = new Agent({ connections: 1 });
      appAgent = dispatcher;
      appLabel = "app     GET /api/pix/charges/{txid}?refresh=1 on next start";
      readFloor = async () => {
        const response = await request(`${appUrl}/api/health`, { dispatcher });
        if (response.statusCode !== 200) throw new Error(`health answered ${response.statusCode}`);
        await response.body.json();
      };
      const offDispatcher = new Agent({ connections: 1 });
      const readChargeAt = (baseUrl: string, agent: Agent) => async () => {
        const response = await request(`${baseUrl}/api/pix/charges/${txid}?refresh=1`, {
          dispatcher: agent,
          headers: { cookie },
        });
        if (response.statusCode !== 200)
          throw new Error(`app answered ${response.statusCode}: ${await response.body.text()}`);
        await response.body.json();
      };
      readApp = readChargeAt(appUrl, dispatcher);
      readAppWithoutTelemetry = readChargeAt(offUrl, offDispatcher);
      readFloorWithoutTelemetry = async () => {
        const response = await request(`${offUrl}/api/health`, { dispatcher: offDispatcher });
        if (response.statusCode !== 200) throw new Error(`health answered ${response.statusCode}`);
        await response.body.json();
      };
    }
    // What the reads wrote: the charge is paid and unchanged upstream, so the mirror must see no UPDATE (any UPDATE
    // gives the row a new xmin) and no change notification.
    const rowVersion = async () =>
      (await db.$queryRawUnsafe<{ xmin: string }[]>(`SELECT xmin::text FROM "PixCharge" WHERE txid = $1`, txid))[0]
        ?.xmin;
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    let notifications = 0;
    listener.on("notification", (message) => {
      notifications += 1;
      console.log(`  change notification during the reads: ${message.payload}`);
    });
    await listener.query(`LISTEN ${changeChannel}`);
    const versionBefore = await rowVersion();
    const cpuBefore = appCpuSeconds();
    const offCpuBefore = offCpuSeconds();
    const floorLabel = "floor   GET /api/health on next start (SELECT 1, no session)";
    const offLabel = "app     the same, on next start with TELEMETRY_DISABLED=1";
    const offFloorLabel = "floor   the same, on next start with TELEMETRY_DISABLED=1";
    // Each server gets the same requests (a charge read and a health check per turn), so their CPU compares too.
    const [direct, app, floor, appWithoutTelemetry] =
      readFloor && readAppWithoutTelemetry && readFloorWithoutTelemetry
        ? await timeAlternating([directLabel, appLabel, floorLabel, offLabel, offFloorLabel], options, [
            readDirect,
            readApp,
            readFloor,
            readAppWithoutTelemetry,
            readFloorWithoutTelemetry,
          ])
        : [...(await timeAlternating([directLabel, appLabel], options, [readDirect, readApp])), undefined, undefined];
    const cpuAfter = appCpuSeconds();
    const offCpuAfter = offCpuSeconds();
    const isRowWritten = (await rowVersion()) !== versionBefore;
    await listener.end();
    await appAgent?.close();
    await directAgent.close();

    console.log(
      `\nReading one Pix charge, ${options.requests} sequential requests after ${options.warmup} warm-up, keep-alive, mTLS to the sandbox:`,
    );
    printComparison(direct, app, goalMs, `mode: ${options.mode}`);
    if (floor) {
      console.log(`  ${floor.label.padEnd(66)} p50 ${formatMs(floor.p50)}   p99 ${formatMs(floor.p99)}`);
      console.log(
        `  app adds over direct + floor (session, mirror read, upstream client)  p50 ${formatMs(app.p50 - direct.p50 - floor.p50)}`,
      );
    }
    if (cpuBefore !== null && cpuAfter !== null) {
      const perRead = ((cpuAfter - cpuBefore) * 1000) / (options.warmup + options.requests);
      console.log(`  next start CPU per read (user + system, whole process group): ${perRead.toFixed(2)} ms`);
    }
    console.log(
      `  ${options.warmup + options.requests} reads of an unchanged charge: row ${isRowWritten ? "UPDATED" : "not written"}, ${notifications} change notifications`,
    );
    if (appWithoutTelemetry && otlpSink) {
      const added = app.p50 - appWithoutTelemetry.p50;
      console.log(`\nMetrics and tracing (OTLP export on) against neither, same build, same run, reads taking turns:`);
      console.log(`  p50 with ${formatMs(app.p50)}   p50 without ${formatMs(appWithoutTelemetry.p50)}`);
      console.log(`  telemetry adds p50 ${formatMs(added)}   p99 ${formatMs(app.p99 - appWithoutTelemetry.p99)}`);
      if (cpuBefore !== null && cpuAfter !== null && offCpuBefore !== null && offCpuAfter !== null) {
        const reads = options.warmup + options.requests;
        const withCpu = ((cpuAfter - cpuBefore) * 1000) / reads;
        const withoutCpu = ((offCpuAfter - offCpuBefore) * 1000) / reads;
        console.log(
          `  CPU per turn (a charge read and a health check): with ${withCpu.toFixed(2)} ms, without ${withoutCpu.toFixed(2)} ms, telemetry adds ${(withCpu - withoutCpu).toFixed(2)} ms`,
        );
      }
      const scrape = await request(`${appUrl}/api/metrics`, {
        headers: { authorization: `Bearer ${benchMetricsToken}` },
      });
      const exposition = await scrape.body.text();
      const counted =
        /payments_http_request_duration_seconds_count\{route="\/api\/pix\/charges\/\[txid\]"[^}]*\} (\d+)/.exec(
          exposition,
        )?.[1];
      console.log(
        `  spans exported to the OTLP sink: ${otlpSink.received.requests} requests, ${otlpSink.received.bytes} bytes; reads counted by /api/metrics: ${counted ?? "none"}`,
      );
      const isMet = added < telemetryGoalMs;
      console.log(`  goal: under ${telemetryGoalMs} ms at p50 -> ${isMet ? "met" : "NOT met"}`);
      if (!isMet || !counted || otlpSink.received.requests === 0) process.exitCode = 1;
    }
    await disconnectDb();
  } finally {
    await stopAll();
    await otlpSinkClose?.();
    await sandbox.stop();
    const { resetGatewayClient } = await import("@/lib/gateway/http");
    await resetGatewayClient();
    await database.drop();
  }
}

await main();
