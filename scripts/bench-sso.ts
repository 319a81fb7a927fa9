// `npm run bench:sso`: an SSO sign-in against a password sign-in, same run, same person (docs/sso.md). In-process on a
// throw-away PostgreSQL database, with a real oidc-provider on loopback (lib/testing/oidc-provider.ts): the SSO side
// is the start (attempt row, PKCE), the provider's login form and redirects, the callback (code exchange, ID token
// checks, UserInfo, role mapping) and the ticket's sign-in; the password side is signInWithPassword (scrypt). Both end
// where next-auth takes over (its JWT is the same for both). --requests=30 --warmup=3; they take turns.
import { randomBytes } from "node:crypto";
import { applyMigrations } from "@/lib/db/migrate";
import { startOidcProvider } from "@/lib/testing/oidc-provider";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { formatMs, timeAlternating } from "./bench-timing";

const appUrl = "http://localhost:3997";

function readOptions(args: string[]) {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return { requests: Number(value("requests") ?? 30), warmup: Number(value("warmup") ?? 3) };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const database = await createThrowawayDatabase("payments_bench");
  const provider = await startOidcProvider({ redirectUris: [`${appUrl}/api/auth/sso/callback`] });
  try {
    await applyMigrations({ kind: "postgres", url: database.url });
    // Set before the app's modules read them (they are imported below, on purpose).
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      APP_URL: appUrl,
      AUTH_SECRET: randomBytes(32).toString("base64"),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    });
    const { disconnectDb } = await import("@/lib/db/client");
    const { createUser } = await import("@/lib/users/users");
    const { saveSsoSettings } = await import("@/lib/sso/settings");
    const { startSsoSignIn, finishSsoSignIn } = await import("@/lib/sso/flow");
    const { signInWithSsoTicket } = await import("@/lib/auth/sso-sign-in");
    const { signInWithPassword } = await import("@/lib/auth/sign-in");
    const { signInAtProvider } = await import("@/lib/testing/oidc-provider");

    const password = randomBytes(12).toString("base64url");
    const email = "bench@bench.test";
    await createUser({ email, name: "Bench", roleId: "operations", password }, { actor: null });
    provider.setAccount("bench", { email, email_verified: true, groups: ["ops"] });
    await saveSsoSettings(
      {
        isEnabled: true,
        issuerUrl: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        groupsClaim: "groups",
        groupRoles: [{ group: "ops", roleId: "operations" }],
        defaultRoleId: null,
        allowedDomains: ["bench.test"],
        ssoOnlyDomains: [],
        breakGlassOwnerId: null,
        requireVerifiedEmail: true,
      },
      { actor: null },
    );
    const context = { ip: "203.0.113.9", userAgent: "bench" };

    let starts = 0;
    const signInBySso = async () => {
      // One address per start: the start's limit per address is not what this measures.
      const started = await startSsoSignIn({ ip: `bench-${starts++}` });
      if (started.status !== "redirect") throw new Error(`start refused: ${started.reason}`);
      const back = await signInAtProvider(started.url, "bench");
      const outcome = await finishSsoSignIn(
        new URL(`/api/auth/sso/callback${back.search}`, appUrl),
        started.browserSecret,
        context,
      );
      if (outcome.status !== "ticket") throw new Error(`callback refused: ${outcome.reason}`);
      if ((await signInWithSsoTicket(outcome.ticket, context)).status !== "signed-in")
        throw new Error("ticket refused");
    };
    const signInByPassword = async () => {
      if ((await signInWithPassword({ email, password }, context)).status !== "signed-in") throw new Error("refused");
    };

    console.log(
      `SSO sign-in vs password sign-in, ${options.requests} each after ${options.warmup} warm-up, taking turns`,
    );
    const [sso, local] = await timeAlternating(
      [
        "SSO: start -> provider login (loopback) -> callback -> ticket sign-in",
        "password: signInWithPassword (scrypt)",
      ],
      options,
      [signInBySso, signInByPassword],
    );
    for (const result of [sso, local])
      console.log(`  ${result.label.padEnd(72)} p50 ${formatMs(result.p50)}   p99 ${formatMs(result.p99)}`);
    console.log(`  ${"SSO minus password".padEnd(72)} p50 ${formatMs(sso.p50 - local.p50)}`);
    await disconnectDb();
  } finally {
    await provider.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
