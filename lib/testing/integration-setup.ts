import { testDatabaseUrl } from "./test-database";

process.env.DATABASE_URL = testDatabaseUrl();
