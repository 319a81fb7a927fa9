// npm run db:new -- --name add_refunds: what `prisma migrate dev --create-only` does, offline.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { diffMigrationsToSchema, migrationsDir } from "./schema-diff";

function migrationTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function toMigrationName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 200);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { name: { type: "string" } } });
  const name = toMigrationName(values.name ?? "");
  if (!name) {
    console.error("Usage: npm run db:new -- --name short_description_of_the_change");
    return 1;
  }
  const diff = await diffMigrationsToSchema();
  if (!diff.hasChanges) {
    console.log("schema.prisma already matches prisma/migrations: no migration written.");
    return 0;
  }
  const folder = path.join(migrationsDir, `${migrationTimestamp(new Date())}_${name}`);
  if (existsSync(folder)) {
    console.error(`${folder} already exists; wait a second and run again.`);
    return 1;
  }
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "migration.sql"), diff.sql);
  console.log(`Wrote ${path.relative(process.cwd(), folder)}/migration.sql:\n\n${diff.sql}`);
  console.log("Review it, then apply it with `npm run db:migrate`.");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
