import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "@/lib/db/migrate";
import { createThrowawayDatabase } from "./postgres-server";

// A throw-away database for the `integration` project (docs/database.md), as DATABASE_URL and inject("databaseUrl").

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await createThrowawayDatabase("payments_test");
  try {
    await applyMigrations({ kind: "postgres", url: database.url });
  } catch (error) {
    await database.drop();
    throw error;
  }
  process.env.DATABASE_URL = database.url;
  // The server's required secrets, fresh for each run (inherited by the test workers too).
  process.env.AUTH_SECRET ||= randomBytes(32).toString("base64");
  process.env.WEBHOOK_SECRET_KEY ||= randomBytes(32).toString("base64");
  project.provide("databaseUrl", database.url);
  return () => database.drop();
}
