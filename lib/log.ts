import "server-only";
import pino from "pino";

// One logger for the server. Card numbers and security codes never reach a log line: the
// redact paths below are a last line of defence, not the rule (the rule is not to log them).
export const log = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: { service: "dashboard" },
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
