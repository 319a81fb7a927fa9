// `npm run bench:terminal`: what the virtual terminal adds over a direct create-payment call to the sandbox
// (docs/virtual-terminal.md). In-process, as bench:gateway: chargeFromTerminal (validation, idempotency key claimed
// and recorded, mirror write with installments, audit entry) vs the same POST /api/v1/payments over mTLS, taking
// turns. --requests=1000 --warmup=100; --pglite runs on the embedded database (the default without DATABASE_URL);
// --async-commit turns synchronous_commit off on the throw-away database, to show what the disk's fsync of the two
// commits costs. Goal: what the terminal adds at p50 is under 2x the direct call's own p50, measured in the same run.
// Beside them, taking the same turns, two single-row INSERTs each committed durably: the floor of the claim and record.
// Then a Pix charge: createPixCharge (the same claim, one statement after the call) against POST /api/v1/pix-charges.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Agent, request } from "undici";
import { applyMigrations } from "@/lib/db/migrate";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { clientTls, startSandbox } from "@/sandbox/test/harness";
import { formatMs, printComparison, timeAlternating } from "./bench-timing";

function readOptions(args: string[]) {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    requests: Number(value("requests") ?? 1000),
    warmup: Number(value("warmup") ?? 100),
    // Diagnosis only: shows how much of the figure is the disk's fsync of the two commits (claim, record).
    isAsyncCommit: args.includes("--async-commit"),
    isPglite: args.includes("--pglite"),
  };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const database = options.isPglite ? null : await createThrowawayDatabase("payments_bench");
  const pgliteDir = options.isPglite ? mkdtempSync(path.join(tmpdir(), "bench-terminal-")) : null;
  const sandbox = await startSandbox();
  try {
    if (database) await applyMigrations({ kind: "postgres", url: database.url });
    if (database && options.isAsyncCommit) {
      const { default: pg } = await import("pg");
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query("SELECT set_config('synchronous_commit', 'off', false)");
      await admin.query(`ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET synchronous_commit = off`);
      await admin.end();
    }
    // Set before the app's modules read them (they are imported below, on purpose).
    if (pgliteDir) {
      delete process.env.DATABASE_URL;
      process.env.PGLITE_DATA_DIR = pgliteDir;
    }
    Object.assign(process.env, {
      ...(database ? { DATABASE_URL: database.url } : {}),
      AUTH_SECRET: randomBytes(32).toString("base64"),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    });
    const { useGateway } = await import("@/lib/testing/gateway-sandbox");
    await useGateway(sandbox.baseUrl, sandbox.certsDir);
    const { db, disconnectDb, getDatabaseConnection } = await import("@/lib/db/client");
    if (pgliteDir) await applyMigrations(getDatabaseConnection());
    const { chargeFromTerminal } = await import("@/lib/card-payments/terminal");
    const { ZTerminalPaymentInput } = await import("@/lib/card-payments/schemas");
    const { createPixCharge } = await import("@/lib/pix/charges");
    const { ZCreatePixChargeInput } = await import("@/lib/pix/schemas");

    const user = await db.user.create({ data: { email: "bench@example.com", name: "Bench", passwordHash: "unused" } });
    const actor = { actor: { id: user.id, email: user.email } };
    // The same payment both ways: 123,45 in 3 installments without interest on an approved test card.
    const body = (orderId: string) => ({
      identificacaoPagamento: orderId,
      numeroParcelas: 3,
      tipoParcelamento: "4",
      bandeiraCartao: "1",
      valor: 123.45,
      numeroCartao: "4111111111111111",
      dataExpiracao: "12/39",
      codigoSeguranca: "123",
    });

    // The least any correct terminal writes: the key's claim must be durable before the call, its result after it.
    const { runSql } = await import("@/lib/db/sql");
    await runSql(`CREATE TABLE "bench_commit_floor" ("id" uuid PRIMARY KEY, "at" timestamptz NOT NULL)`, []);
    const durableInsert = () =>
      runSql(`INSERT INTO "bench_commit_floor" ("id", "at") VALUES ($1::uuid, now())`, [randomUUID()]);

    const directAgent = new Agent({ connect: clientTls(sandbox.certsDir, "merchant"), connections: 1 });
    const postDirect = async (apiPath: string, json: object) => {
      const response = await request(`${sandbox.baseUrl}${apiPath}`, {
        method: "POST",
        dispatcher: directAgent,
        headers: { "content-type": "application/json", "x-transaction-id": randomUUID() },
        body: JSON.stringify(json),
      });
      if (response.statusCode !== 201) throw new Error(`sandbox answered ${response.statusCode}`);
      await response.body.json();
    };
    const pixBody = { amount: 25.9, expiration: 600, description: "Bench" };
    const [direct, app, commits, pixDirect, pixApp] = await timeAlternating(
      [
        "direct  sandbox POST /api/v1/payments",
        "app     chargeFromTerminal(input) in-process",
        "floor   two single-row INSERTs, each its own durable commit",
        "direct  sandbox POST /api/v1/pix-charges",
        "app     createPixCharge(input) in-process",
      ],
      options,
      [
        () => postDirect("/api/v1/payments", body(`BENCH-D-${randomUUID()}`)),
        async () => {
          const input = ZTerminalPaymentInput.parse({
            idempotencyKey: randomUUID(),
            amountCents: 12_345,
            orderId: `BENCH-A-${randomUUID()}`,
            installmentType: "4",
            installmentCount: 3,
            card: { kind: "typed", number: "4111111111111111", expiry: "12/39", securityCode: "123" },
          });
          const result = await chargeFromTerminal(input, actor);
          if (!result.isApproved) throw new Error("payment refused");
        },
        async () => {
          await durableInsert();
          await durableInsert();
        },
        () => postDirect("/api/v1/pix-charges", pixBody),
        async () => {
          const input = ZCreatePixChargeInput.parse({
            idempotencyKey: randomUUID(),
            amountCents: 2590,
            expirationSeconds: pixBody.expiration,
            description: pixBody.description,
          });
          await createPixCharge(input, actor);
        },
      ],
    );
    await directAgent.close();

    const backend = pgliteDir ? "embedded PGlite" : "PostgreSQL";
    console.log(
      `\nOne card payment, ${options.requests} of each after ${options.warmup} warm-up, taking turns, keep-alive, mTLS to the sandbox, ${backend}:`,
    );
    const goalRatio = 2;
    printComparison(
      direct,
      app,
      Number((goalRatio * direct.p50).toFixed(2)),
      `${goalRatio}x the direct call's p50, in-process${options.isAsyncCommit ? ", synchronous_commit off (diagnosis)" : ""}`,
    );
    const ratio = (app.p50 - direct.p50) / direct.p50;
    console.log(
      `  ratio: the terminal adds ${ratio.toFixed(2)}x the direct call's own p50 (${formatMs(app.p50 - direct.p50).trim()} over ${formatMs(direct.p50).trim()}); goal under ${goalRatio}x -> ${ratio < goalRatio ? "met" : "NOT met"}`,
    );
    const ownWork = app.p50 - direct.p50 - commits.p50;
    console.log(
      `  floor: two durable commits take ${formatMs(commits.p50).trim()} at p50 (${(commits.p50 / direct.p50).toFixed(2)}x the direct call); beyond them the terminal's own work is ${formatMs(ownWork).trim()} (${(ownWork / direct.p50).toFixed(2)}x)`,
    );
    const payments = await db.cardPayment.count();
    console.log(`  (${payments} payments mirrored; each app call also wrote its idempotency key and audit entry)`);

    console.log("\nOne Pix charge, the same turns:");
    printComparison(
      pixDirect,
      pixApp,
      Number((goalRatio * pixDirect.p50).toFixed(2)),
      `${goalRatio}x the direct call's p50`,
    );
    const pixRatio = (pixApp.p50 - pixDirect.p50) / pixDirect.p50;
    console.log(
      `  ratio: createPixCharge adds ${pixRatio.toFixed(2)}x the direct call's own p50 (${formatMs(pixApp.p50 - pixDirect.p50).trim()} over ${formatMs(pixDirect.p50).trim()}); goal under ${goalRatio}x -> ${pixRatio < goalRatio ? "met" : "NOT met"}`,
    );
    console.log(`  (${await db.pixCharge.count()} charges mirrored, each with its idempotency key and audit entry)`);
    await disconnectDb();
  } finally {
    await sandbox.stop();
    const { resetGatewayClient } = await import("@/lib/gateway/http");
    await resetGatewayClient();
    await database?.drop();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  }
}

await main();
