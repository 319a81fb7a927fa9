import path from "node:path";

// The two configurations the suite runs against, each with its own sandbox and a production build
// of the app: a throw-away PostgreSQL database, and the embedded PGlite database that is the
// default (`DATABASE_URL` unset) and what `npm run demo` runs. Read by the Playwright config, the
// server launchers in e2e/servers/ and the fixtures, so ports and files are named in one place.

export type TDatabase = "postgres" | "pglite";
export type TRole = "admin" | "staff";

export type TTarget = { database: TDatabase; appPort: number; sandboxPort: number; appUrl: string; sandboxUrl: string };

export type TTestUser = {
  email: string;
  password: string;
  name: string;
  roleId: string;
  /** The base32 TOTP secret of a user seeded with two-factor on (the approver). */
  totpSecret?: string;
};

// Made before the app starts (PGlite admits one process). `signin` and `locked` belong to the
// sign-in specs, which fail passwords on purpose; everyone else reuses admin's or staff's session.
// `approver` is the independent second admin (created days ago, two-factor on) that approvals need; `support` and
// `developer` hold those built-in roles, for the permission specs.
export const seededUsers = {
  admin: "owner",
  staff: "operations",
  signin: "operations",
  locked: "operations",
  approver: "administrator",
  support: "support",
  developer: "developer",
} as const;
export type TSeededUser = keyof typeof seededUsers;

/** What an app launcher leaves for the tests: the seeded users' credentials and, on PostgreSQL, the database. */
// `sessions`: a session token per identity of the route matrix (lib/auth/route-matrix.ts), by its name.
export type TSeed = {
  databaseUrl: string | null;
  users: Record<TSeededUser, TTestUser>;
  sessions: Record<string, string>;
};

const e2eDir = import.meta.dirname;
export const rootDir = path.dirname(e2eDir);
export const logsDir = path.join(e2eDir, ".logs");
export const dataDir = path.join(e2eDir, ".data");

function port(variable: string, fallback: number): number {
  return Number(process.env[variable] || fallback);
}

export function targetOf(database: TDatabase): TTarget {
  const appPort = database === "postgres" ? port("E2E_PORT", 3100) : port("E2E_PGLITE_PORT", 3200);
  const sandboxPort = database === "postgres" ? port("E2E_SANDBOX_PORT", 8543) : port("E2E_PGLITE_SANDBOX_PORT", 8643);
  return {
    database,
    appPort,
    sandboxPort,
    // A name, not an IP address: browsers refuse WebAuthn (passkeys) on an IP address. The app still listens on
    // 127.0.0.1 (e2e/servers/app.ts), which localhost resolves to.
    appUrl: `http://localhost:${appPort}`,
    sandboxUrl: `https://127.0.0.1:${sandboxPort}`,
  };
}

/** Where the metrics spec runs Debian's Prometheus against the app (e2e/metrics.spec.ts). */
export function prometheusPort(): number {
  return port("E2E_PROMETHEUS_PORT", 9090);
}

/** The bearer token Prometheus sends to the apps under test (METRICS_TOKEN). */
export const e2eMetricsToken = "e2e-metrics-token-not-a-secret";

/** The loopback SMTP server every app under test sends to, and the HTTP port where tests read what it got. */
export function mailboxPorts(): { smtp: number; http: number } {
  return { smtp: port("E2E_SMTP_PORT", 2525), http: port("E2E_MAILBOX_PORT", 2526) };
}

/** The loopback OpenID Connect provider the SSO spec signs in at (e2e/servers/oidc.ts), and the app's client there. */
export function oidcProvider(): { port: number; issuer: string; clientId: string; clientSecret: string } {
  const oidcPort = port("E2E_OIDC_PORT", 2527);
  return {
    port: oidcPort,
    issuer: `http://127.0.0.1:${oidcPort}`,
    clientId: "payments-dashboard",
    clientSecret: "e2e-only-client-secret",
  };
}

/** `E2E_DATABASES=postgres` (or `pglite`) starts and tests one configuration only; both by default. */
export function selectedTargets(): TTarget[] {
  const names = (process.env.E2E_DATABASES || "postgres,pglite").split(",").map((name) => name.trim());
  const unknown = names.filter((name) => name !== "postgres" && name !== "pglite");
  if (unknown.length > 0) throw new Error(`E2E_DATABASES: unknown ${unknown.join(", ")} (postgres, pglite)`);
  return (["postgres", "pglite"] as const).filter((name) => names.includes(name)).map(targetOf);
}

export function parseDatabase(value: string | undefined): TDatabase {
  if (value === "postgres" || value === "pglite") return value;
  throw new Error(`Expected the database, postgres or pglite; got ${value ?? "nothing"}`);
}

export function authDir(database: TDatabase): string {
  return path.join(e2eDir, ".auth", database);
}

export function seedFile(database: TDatabase): string {
  return path.join(authDir(database), "users.json");
}

export function storageStateFile(database: TDatabase, role: TRole): string {
  return path.join(authDir(database), `${role}.json`);
}
