import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Agent, request as undiciRequest } from "undici";
import { ensureCerts } from "../certs/certs";

const repoRoot = path.resolve(import.meta.dirname, "../..");
/** Shared by every test run: key generation is the slow part of creating certificates. */
export const testCertsDir = path.join(repoRoot, ".data", "test-certs");

export type TResponse<T = any> = { status: number; headers: Record<string, string | string[] | undefined>; body: T };

export type TSandbox = {
  baseUrl: string;
  port: number;
  dataDir: string;
  certsDir: string;
  /** Output of the sandbox process so far (for failure diagnostics). */
  output(): string;
  request<T = any>(
    clientName: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TResponse<T>>;
  /** Graceful stop; removes the data dir when the harness created it. */
  stop(): Promise<void>;
  /** SIGKILL: no graceful shutdown. */
  kill(): Promise<void>;
  /** Starts the process again on the same port and data dir (after stop or kill, or stopping it first). */
  restart(env?: Record<string, string>): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

export function clientTls(certsDir: string, clientName: string): { ca: string; cert: string; key: string } {
  return {
    ca: readFileSync(path.join(certsDir, "ca.pem"), "utf8"),
    cert: readFileSync(path.join(certsDir, `${clientName}.pem`), "utf8"),
    key: readFileSync(path.join(certsDir, `${clientName}-key.pem`), "utf8"),
  };
}

/** Runs the real sandbox (`node --import tsx sandbox/main.ts`) in a child process with its own data dir. */
export async function startSandbox(
  opts: { env?: Record<string, string>; dataDir?: string; clients?: string[]; port?: number } = {},
): Promise<TSandbox> {
  const certsDir = testCertsDir;
  await ensureCerts(certsDir, opts.clients ?? []);
  const isOwnDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "sandbox-test-")));
  const port = opts.port ?? (await freePort());
  const baseUrl = `https://127.0.0.1:${port}`;
  let env = { ...opts.env };
  let child: ChildProcess | undefined;
  let output = "";
  const agents = new Map<string, Agent>();

  const spawnChild = async () => {
    const proc = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
      cwd: repoRoot,
      env: {
        ...process.env,
        SANDBOX_PORT: String(port),
        SANDBOX_HOST: "127.0.0.1",
        SANDBOX_DATA_DIR: dataDir,
        SANDBOX_CERTS_DIR: certsDir,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = proc;
    await new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error(`sandbox did not start in time:\n${output}`)), 30_000);
      proc.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`Sandbox listening on ${baseUrl}`)) {
          clearTimeout(timeout);
          resolve();
        }
      });
      proc.stderr!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      proc.once("exit", (code, signal) => {
        clearTimeout(timeout);
        reject(new Error(`sandbox exited (${code ?? signal}) before listening:\n${output}`));
      });
    });
  };

  const closeAgents = async () => {
    const closing = [...agents.values()].map((agent) => agent.destroy());
    agents.clear();
    await Promise.allSettled(closing);
  };

  const end = async (signal: NodeJS.Signals) => {
    await closeAgents();
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill(signal);
    });
  };

  const agentFor = (clientName: string): Agent => {
    let agent = agents.get(clientName);
    if (!agent) {
      agent = new Agent({ connect: clientTls(certsDir, clientName) });
      agents.set(clientName, agent);
    }
    return agent;
  };

  await spawnChild();

  return {
    baseUrl,
    port,
    dataDir,
    certsDir,
    output: () => output,
    async request(clientName, method, requestPath, body, headers = {}) {
      const response = await undiciRequest(`${baseUrl}${requestPath}`, {
        method: method as "GET",
        dispatcher: agentFor(clientName),
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.body.text();
      let parsed: unknown = text;
      if ((response.headers["content-type"] ?? "").toString().includes("application/json")) parsed = JSON.parse(text);
      return { status: response.statusCode, headers: response.headers, body: parsed as any };
    },
    async stop() {
      await end("SIGTERM");
      if (isOwnDataDir) await rm(dataDir, { recursive: true, force: true });
    },
    kill: () => end("SIGKILL"),
    async restart(nextEnv) {
      await end("SIGTERM");
      if (nextEnv) env = { ...opts.env, ...nextEnv };
      await spawnChild();
    },
  };
}

export type TReceivedWebhook = {
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  receivedAt: number;
  answeredStatus: number;
};

/**
 * An HTTP server that records every request; it answers 500 to the first `failTimes` requests, then 200,
 * each answer after `answerDelayMs`.
 */
export async function startWebhookReceiver(opts: { failTimes?: number; port?: number; answerDelayMs?: number } = {}) {
  const received: TReceivedWebhook[] = [];
  let failuresLeft = opts.failTimes ?? 0;
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const status = failuresLeft > 0 ? 500 : 200;
      if (failuresLeft > 0) failuresLeft -= 1;
      received.push({
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
        answeredStatus: status,
      });
      for (const wake of waiters.splice(0)) wake();
      setTimeout(() => res.writeHead(status).end(status === 200 ? "ok" : "fail"), opts.answerDelayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    failNext(times: number) {
      failuresLeft = times;
    },
    /** Resolves once at least `count` requests have arrived. */
    async waitFor(count: number, timeoutMs = 15_000): Promise<TReceivedWebhook[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
