import { testDatabaseUrl } from "./test-database";

// Runs before each integration file: the app's `db` (lib/db/client.ts) opens this worker's database.
process.env.DATABASE_URL = testDatabaseUrl();
