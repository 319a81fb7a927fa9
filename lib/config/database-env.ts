import { z } from "zod";
import { defineEnvConcern, parseEnvConcern } from "./define-env";

const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgresql:// URL" }).optional();

export const databaseEnvConcern = defineEnvConcern("database", {
  DATABASE_URL: postgresUrl.describe(
    "Leave it unset to use the embedded PGlite database, or set a PostgreSQL URL such as postgresql://user:password@127.0.0.1:5432/payments.",
  ),
  DATABASE_DIRECT_URL: postgresUrl.describe(
    "PostgreSQL itself when DATABASE_URL goes through a connection pooler: live updates (LISTEN) and migrations use it. Defaults to DATABASE_URL.",
  ),
  DATABASE_POOL_MODE: z
    .enum(["session", "transaction"])
    .default("session")
    .describe(
      "transaction when DATABASE_URL goes through a transaction-pooling pooler (PgBouncer pool_mode=transaction): no named prepared statements. Defaults to session.",
    ),
  DATABASE_READ_URL: postgresUrl.describe(
    "A read replica of DATABASE_URL for lists, exports, the overview, search and health reads; unset: everything reads the primary.",
  ),
  PGLITE_DATA_DIR: z
    .string()
    .default(".data/pglite")
    .describe("Folder of the embedded PGlite database, used when DATABASE_URL is unset; defaults to .data/pglite."),
});

export type TDatabaseEnv = z.infer<typeof databaseEnvConcern.schema>;

export function getDatabaseEnv(env: Record<string, string | undefined> = process.env): TDatabaseEnv {
  return parseEnvConcern(databaseEnvConcern, env);
}
