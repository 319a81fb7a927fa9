import { builtInRoleIds } from "@/lib/auth/roles";
import type { PrismaClient } from "@/lib/generated/prisma/client";

// Own module: test-database.ts and pglite.ts both use it. Built-in roles are put back: every user needs one.
export async function truncateAllTables(db: PrismaClient): Promise<void> {
  const tables = await db.$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`;
  if (tables.length === 0) return;
  const list = tables.map(({ tablename }) => `"${tablename.replaceAll('"', '""')}"`).join(", ");
  await db.$executeRawUnsafe(`TRUNCATE TABLE ${list} RESTART IDENTITY CASCADE`);
  await db.$executeRaw`
    INSERT INTO "Role" ("id", "isBuiltIn", "updatedAt") SELECT unnest(${builtInRoleIds}::text[]), true, now()`;
}
