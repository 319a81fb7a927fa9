import { z } from "zod";
import { defineEnvConcern } from "./define-env";

export const appEnvConcern = defineEnvConcern("app", {
  PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .default(3000)
    .describe("TCP port the dashboard listens on, a number from 1 to 65535; defaults to 3000."),
  APP_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .optional()
    .describe(
      "Public URL of the dashboard, used in links and sign-in callbacks, e.g. https://dashboard.example.com; defaults to http://127.0.0.1:$PORT.",
    ),
  TRUSTED_PROXY_HOPS: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe(
      "How many reverse proxies in front of the app append to X-Forwarded-For, a whole number from 0 to 10; 0 (the default) ignores the header and uses the connecting address.",
    ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("One of fatal, error, warn, info, debug, trace, silent; defaults to info."),
});
