import "server-only";
import { recordGatewayCall, type TGatewayCallOutcome } from "@/lib/health/gateway-call-minutes";
import { countCardPayment, countGatewayError, observeGatewayCall, type TGatewayOutcome } from "@/lib/telemetry/metrics";

/** One attempt of a gateway call, classified once; the health page's tally and the metrics both read it. */
export type TGatewayAttempt = {
  operation: string;
  pathTemplate: string;
  outcome: TGatewayOutcome;
  durationMs: number;
  /** 0 when nothing answered. */
  status: number;
  /** The upstream error code, or the connection error's. */
  errorCode?: string;
};

const cardChargeOperations = new Set(["payments.create", "payments.tokenize"]);

function healthOutcome({ outcome, status }: TGatewayAttempt): TGatewayCallOutcome {
  if (outcome === "ok" || outcome === "refused") return "answered";
  if (outcome === "http_error" && status < 500) return "clientError";
  return "failure";
}

export function tallyGatewayAttempt(attempt: TGatewayAttempt): void {
  const { operation, outcome } = attempt;
  recordGatewayCall(operation, healthOutcome(attempt), Math.round(attempt.durationMs));
  observeGatewayCall(operation, attempt.pathTemplate, outcome, attempt.durationMs / 1000);
  if (outcome === "ok" || outcome === "refused") {
    if (cardChargeOperations.has(operation)) countCardPayment(outcome === "refused" ? "refused" : "approved");
  } else countGatewayError(attempt.status, attempt.errorCode);
}
