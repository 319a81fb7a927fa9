import "server-only";
import pino from "pino";
import { activeTraceIds } from "@/lib/telemetry/tracing";

const noTrace = {};

// The redact paths are a last line of defence: card numbers and security codes are never logged in the first place.
export const log = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: { service: "dashboard" },
  mixin: () => activeTraceIds() ?? noTrace,
  redact: {
    paths: [
      "numeroCartao",
      "codigoSeguranca",
      "*.numeroCartao",
      "*.codigoSeguranca",
      "password",
      "*.password",
      "secret",
      "*.secret",
    ],
    censor: "[redacted]",
  },
});
