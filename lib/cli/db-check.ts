// npm run db:check: fails when schema.prisma and the migrations disagree (a schema change without a migration).
import { diffMigrationsToSchema } from "./schema-diff";

async function main(): Promise<number> {
  const diff = await diffMigrationsToSchema();
  if (!diff.hasChanges) {
    console.log("db:check: prisma/schema.prisma matches prisma/migrations.");
    return 0;
  }
  console.error(
    [
      "db:check: prisma/schema.prisma and prisma/migrations disagree.",
      "Applying every migration and then this SQL would give the schema in schema.prisma:",
      "",
      diff.sql,
      "Add a migration for the change with `npm run db:new -- --name what_changed`, review it, and commit it.",
    ].join("\n"),
  );
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
