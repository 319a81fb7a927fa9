import { z } from "zod";
import { defineEnvConcern, parseEnvConcern } from "./define-env";

export const databaseEnvConcern = defineEnvConcern("database", {
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: "must be a postgresql:// URL" })
    .optional()
    .describe(
      "Leave it unset to use the embedded PGlite database, or set a PostgreSQL URL such as postgresql://user:password@127.0.0.1:5432/payments.",
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
