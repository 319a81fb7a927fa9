// `npm run bench:gateway`: a Pix charge read direct from its own sandbox vs through the app (docs/pix.md).
// --mode=in-process (default) calls getPixChargeView(txid, { refresh: true }); --mode=server reads the route on
// `next start` (--port, 3200) from an existing build. --requests=2000 --warmup=200. Goal: app adds < 5 ms at p50.
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { Agent, request } from "undici";
import { applyMigrations } from "@/lib/db/migrate";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { clientTls, startSandbox } from "@/sandbox/test/harness";
import { printComparison, type TTiming, time } from "./bench-timing";
import { startService, stopAll, waitForHttp } from "./processes";

type Options = { mode: "in-process" | "server"; requests: number; warmup: number; port: number };

function readOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const mode = value("mode") ?? "in-process";
  if (mode !== "in-process" && mode !== "server") throw new Error("--mode must be in-process or server");
  return {
    mode,
    requests: Number(value("requests") ?? 2000),
    warmup: Number(value("warmup") ?? 200),
    port: Number(value("port") ?? 3200),
  };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  if (options.mode === "server" && !existsSync(".next/BUILD_ID"))
    throw new Error("--mode=server needs a production build: run `next build` first.");
  const database = await createThrowawayDatabase("payments_bench");
  const sandbox = await startSandbox();
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

    const user = await db.user.create({ data: { email: "bench@example.com", name: "Bench", passwordHash: "unused" } });
    const actor = { actor: { id: user.id, email: user.email } };
    const { txid } = await createPixCharge(
      ZCreatePixChargeInput.parse({ idempotencyKey: randomUUID(), amountCents: 12_345, expirationSeconds: 3600 }),
      actor,
    );
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);

    const directAgent = new Agent({ connect: clientTls(sandbox.certsDir, "merchant"), connections: 1 });
    const direct = await time("direct  sandbox GET /api/v1/pix-charges/{txid}", options, async () => {
      const response = await request(`${sandbox.baseUrl}/api/v1/pix-charges/${txid}`, { dispatcher: directAgent });
      if (response.statusCode !== 200) throw new Error(`sandbox answered ${response.statusCode}`);
      await response.body.json();
    });

    let app: TTiming;
    if (options.mode === "in-process") {
      app = await time("app     getPixChargeView(txid, { refresh: true }) in-process", options, async () => {
        if (!(await getPixChargeView(txid, { refresh: true }))) throw new Error("charge not found");
      });
    } else {
      const { encode } = await import("next-auth/jwt");
      const cookie = `next-auth.session-token=${await encode({ token: { sub: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion }, secret: authSecret })}`;
      const server = startService("app", "next", ["start", "--hostname", "127.0.0.1", "--port", String(options.port)], {
        env: { ...process.env, PORT: String(options.port), ALLOW_INSECURE_LOCAL_GATEWAY: "1" },
      });
      await waitForHttp(server, `${appUrl}/api/health`);
      const appAgent = new Agent({ connections: 1 });
      app = await time("app     GET /api/pix/charges/{txid}?refresh=1 on next start", options, async () => {
        const response = await request(`${appUrl}/api/pix/charges/${txid}?refresh=1`, {
          dispatcher: appAgent,
          headers: { cookie },
        });
        if (response.statusCode !== 200)
          throw new Error(`app answered ${response.statusCode}: ${await response.body.text()}`);
        await response.body.json();
      });
      await appAgent.close();
    }
    await directAgent.close();

    console.log(
      `\nReading one Pix charge, ${options.requests} sequential requests after ${options.warmup} warm-up, keep-alive, mTLS to the sandbox:`,
    );
    printComparison(direct, app, 5, `mode: ${options.mode}`);
    await disconnectDb();
  } finally {
    await stopAll();
    await sandbox.stop();
    const { resetGatewayClient } = await import("@/lib/gateway/http");
    await resetGatewayClient();
    await database.drop();
  }
}

await main();
