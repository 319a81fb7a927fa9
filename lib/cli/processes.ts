import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, createWriteStream, openSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export type TChildEnv = Record<string, string | undefined>;

export type TService = { name: string; child: ChildProcess; stop: () => Promise<void> };

const running = new Set<TService>();

// `detached: false` keeps the child in this process's group, so whoever kills that group (Playwright
// stopping a web server) takes the child along even when this process gets no chance to stop it.
export function startService(
  name: string,
  command: string,
  args: string[],
  options: { env?: TChildEnv; logFile?: string; detached?: boolean; cwd?: string } = {},
): TService {
  const child = spawn(command, args, {
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached ?? true,
  });
  if (options.logFile) {
    const file = createWriteStream(options.logFile, { flags: "a" });
    child.stdout?.pipe(file);
    child.stderr?.pipe(file);
  } else {
    const prefix = (chunk: Buffer) => chunk.toString().replace(/^(?=.)/gm, `[${name}] `);
    child.stdout?.on("data", (chunk: Buffer) => process.stdout.write(prefix(chunk)));
    child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(prefix(chunk)));
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const service: TService = {
    name,
    child,
    stop: async () => {
      running.delete(service);
      if (child.exitCode !== null || child.signalCode !== null) return;
      // The whole process group: `npm`/`tsx` wrappers leave their children behind otherwise.
      signalGroup(child, "SIGTERM");
      const done = await Promise.race([exited.then(() => true), sleep(8_000).then(() => false)]);
      if (!done) signalGroup(child, "SIGKILL");
    },
  };
  running.add(service);
  return service;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((service) => service.stop()));
}

export async function waitForHttp(
  service: TService,
  url: string,
  timeoutMs = 120_000,
  fetchImpl: (url: string) => Promise<{ status: number }> = fetch,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null)
      throw new Error(`${service.name} exited with code ${service.child.exitCode} before answering at ${url}`);
    try {
      const response = await fetchImpl(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  throw new Error(`${service.name} did not answer at ${url} within ${timeoutMs / 1000} s`);
}

export function runCommand(
  command: string,
  args: string[],
  env?: TChildEnv,
  options: { logFile?: string } = {},
): Promise<number> {
  return new Promise((resolve) => {
    const output = options.logFile ? openSync(options.logFile, "a") : "inherit";
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: output === "inherit" ? "inherit" : ["ignore", output, output],
    });
    child.once("exit", (code, signal) => {
      if (typeof output === "number") closeSync(output);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

// Exits with the service's code when it stops by itself; on SIGINT or SIGTERM stops it, runs `cleanup`, exits 0.
export function keepAliveUntilStopped(service: TService, cleanup: () => Promise<void> = async () => {}): void {
  let isStopping = false;
  const finish = async (code: number) => {
    if (isStopping) return;
    isStopping = true;
    await stopAll();
    await cleanup().catch((error: unknown) => console.error(`${service.name}: cleanup failed:`, error));
    process.exit(code);
  };
  service.child.once("exit", (code) => {
    if (isStopping) return;
    console.error(`${service.name} stopped by itself (exit code ${code})`);
    void finish(code || 1);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void finish(0));
}

// The sandbox refuses clients without a certificate: a TCP accept is the readiness signal.
export async function waitForPort(service: TService, port: number, timeoutMs = 60_000): Promise<void> {
  const { connect } = await import("node:net");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null)
      throw new Error(`${service.name} exited with code ${service.child.exitCode} before listening on ${port}`);
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (isOpen) return;
    await sleep(200);
  }
  throw new Error(`${service.name} did not listen on ${port} within ${timeoutMs / 1000} s`);
}
