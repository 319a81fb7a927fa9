// Side-effect import, placed first: loads the .env files as Next.js does, so CLIs talk to the app's database.
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });
