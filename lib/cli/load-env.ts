// Side-effect import for CLIs, placed first: loads .env, .env.local and friends exactly as
// Next.js does, so `npm run db:migrate` talks to the same database as the app.
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });
