import "server-only";
import { log } from "@/lib/log";

// Contract 2.5 `{ code, message }` for every status; neither it nor `reason` ever carries the key or seller token.

export type TPosEndpoint = "activate" | "config" | "report";

export class PosApiError extends Error {
  readonly status: number;
  readonly reason: string;
  readonly headers: Record<string, string>;

  constructor(status: number, reason: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "PosApiError";
    this.status = status;
    this.reason = reason;
    this.headers = headers;
  }
}

export const posError = {
  unauthorized: (reason: string) => new PosApiError(401, reason, "API key missing or invalid"),
  business: (reason: string, message: string) => new PosApiError(422, reason, message),
};

const failureCounts = new Map<string, number>();

export function posFailureCount(endpoint: TPosEndpoint, status: number, reason: string): number {
  return failureCounts.get(`${endpoint} ${status} ${reason}`) ?? 0;
}

export type TPosLogContext = { keyPrefix?: string; tenantId?: string; posId?: string };

function recordPosFailure(endpoint: TPosEndpoint, error: PosApiError, context: TPosLogContext = {}): void {
  const counter = `${endpoint} ${error.status} ${error.reason}`;
  failureCounts.set(counter, (failureCounts.get(counter) ?? 0) + 1);
  log.warn({ event: "pos.failure", endpoint, status: error.status, reason: error.reason, ...context }, error.message);
}

const noStore = { "cache-control": "no-store" };

export function posJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...noStore, ...headers } });
}

function posErrorResponse(error: PosApiError): Response {
  return posJson({ code: error.status, message: error.message }, error.status, error.headers);
}

export async function handlePos(
  endpoint: TPosEndpoint,
  run: (context: TPosLogContext) => Promise<Response>,
): Promise<Response> {
  const context: TPosLogContext = {};
  try {
    return await run(context);
  } catch (error) {
    if (error instanceof PosApiError) {
      recordPosFailure(endpoint, error, context);
      return posErrorResponse(error);
    }
    const internal = new PosApiError(500, "internal", "internal error");
    recordPosFailure(endpoint, internal, context);
    log.error({ err: error, endpoint, ...context }, "pos endpoint failed");
    return posErrorResponse(internal);
  }
}
