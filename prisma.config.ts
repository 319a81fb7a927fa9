import { defineConfig } from "prisma/config";

// The CLI reads DATABASE_URL only for `prisma migrate deploy` on a machine that has Prisma's
// schema engine; here `npm run db:migrate` applies the same migration files offline.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/payments" },
});
