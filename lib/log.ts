import "server-only";
import pino from "pino";
import { activeTraceIds } from "@/lib/telemetry/tracing";

// The redact paths are a last line of defence: card numbers and security codes are never logged in the first place.
export function createLog(destination?: pino.DestinationStream): pino.Logger {
  const options: pino.LoggerOptions = {
    level: process.env.LOG_LEVEL ?? "info",
    base: { service: "dashboard" },
    // A new object per line: pino merges each line's fields into what the mixin returns.
    mixin: () => activeTraceIds() ?? {},
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
  };
  return destination ? pino(options, destination) : pino(options);
}

export const log = createLog();
