import "server-only";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type Span, SpanKind } from "@opentelemetry/api";
import { Agent, request } from "undici";
import type { z } from "zod";
import { log } from "@/lib/log";
import { injectTraceHeaders, withSpan } from "@/lib/telemetry/tracing";
import { type TGatewayAttempt, tallyGatewayAttempt } from "./call-tally";
import { clearGatewayConfig, GatewayConfigError, getGatewayConfig } from "./config";
import {
  GatewayHttpError,
  GatewayRefusedError,
  GatewaySchemaError,
  GatewayTimeoutError,
  GatewayUnavailableError,
  parseGatewayErrorBody,
  type TGatewayRefusal,
} from "./errors";

type TQueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export type TGatewayRequest<TSchema extends z.ZodType> = {
  operation: string;
  method: "GET" | "POST" | "PUT";
  /** Built with apiPath``, which encodes every interpolated value as one path segment. */
  path: string;
  query?: Record<string, TQueryValue>;
  querySchema?: z.ZodType;
  body?: unknown;
  bodySchema?: z.ZodType;
  schema: TSchema;
  /** Logged instead of `path` when the path holds a secret (a link's verification code). */
  logPath?: string;
  /** 7.4: reports a 200/201 that failed at the authorizer. */
  refusal?: (data: z.output<TSchema>) => TGatewayRefusal | undefined;
  /** The sandbox's control API: traced, but not tallied as gateway traffic (health, alerts, metrics). */
  control?: true;
};

// The template behind each built path (`/api/v1/pix-charges/{id}`) for spans and metrics: read back once by the
// gatewayRequest that follows in the same tick, so the map stays small.
const pathTemplates = new Map<string, string>();

export function apiPath(strings: TemplateStringsArray, ...segments: Array<string | number>): string {
  const path = strings.reduce(
    (out, part, index) => out + part + (index < segments.length ? encodeURIComponent(String(segments[index])) : ""),
    "",
  );
  if (pathTemplates.size >= 64) pathTemplates.clear();
  pathTemplates.set(path, strings.join("{id}"));
  return path;
}

function takePathTemplate(path: string): string {
  const template = pathTemplates.get(path);
  if (template === undefined) return path;
  pathTemplates.delete(path);
  return template;
}

// One keep-alive pool per process: the mTLS handshake is paid once per connection, not once per call (undici also
// resumes TLS sessions when it reconnects). On globalThis because a production build holds a copy of this module in
// each chunk that uses it (route handlers, pages, actions), and each copy would open its own pool.
const shared = globalThis as typeof globalThis & { __paymentsGatewayAgent?: Agent };

function getAgent(): Agent {
  if (!shared.__paymentsGatewayAgent) {
    const config = getGatewayConfig();
    shared.__paymentsGatewayAgent = new Agent({
      connect: { ...config.tls, timeout: config.connectTimeoutMs },
      headersTimeout: config.responseTimeoutMs,
      bodyTimeout: config.responseTimeoutMs,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connections: 64,
    });
  }
  return shared.__paymentsGatewayAgent;
}

export async function resetGatewayClient(): Promise<void> {
  const closing = shared.__paymentsGatewayAgent;
  shared.__paymentsGatewayAgent = undefined;
  clearGatewayConfig();
  await closing?.close();
}

function buildQuery(query: Record<string, TQueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown[] };
  if (typeof code === "string") return code;
  if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
  return cause === undefined ? undefined : errorCode(cause);
}

// Errors where no request reached the server, or the connection broke: safe to retry for a GET.
const transientConnectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function backoffMs(retry: number): number {
  const base = Math.min(2000, 100 * 2 ** retry);
  return base / 2 + Math.random() * (base / 2);
}

type TContext = { operation: string; transactionId: string };

function validateOutgoing(schema: z.ZodType | undefined, value: unknown, context: TContext): void {
  if (!schema || value === undefined) return;
  const result = schema.safeParse(value);
  if (!result.success) throw new GatewaySchemaError("request", result.error.issues, "", context);
}

function parseSuccess<TSchema extends z.ZodType>(schema: TSchema, text: string, context: TContext): z.output<TSchema> {
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    throw new GatewaySchemaError(
      "response",
      [{ code: "custom", path: [], message: "the body is not JSON", input: text }],
      text,
      context,
    );
  }
  const result = schema.safeParse(json);
  if (!result.success) throw new GatewaySchemaError("response", result.error.issues, text, context);
  return result.data;
}

// Only GETs are retried, and only on connection errors: a POST or PUT whose connection broke may have been
// applied, so the caller decides. Every failure becomes a GatewayError.
export async function gatewayRequest<TSchema extends z.ZodType>(
  options: TGatewayRequest<TSchema>,
): Promise<z.output<TSchema>> {
  const transactionId = randomUUID();
  const context: TContext = { operation: options.operation, transactionId };
  validateOutgoing(options.querySchema, options.query, context);
  validateOutgoing(options.bodySchema, options.body, context);

  let config: ReturnType<typeof getGatewayConfig>;
  let dispatcher: Agent;
  try {
    config = getGatewayConfig();
    dispatcher = getAgent();
  } catch (error) {
    if (error instanceof GatewayConfigError)
      throw new GatewayUnavailableError(error.message, 0, { ...context, cause: error });
    throw error;
  }

  const url = `${config.baseUrl}${options.path}${buildQuery(options.query)}`;
  const headers: Record<string, string> = { accept: "application/json", "x-transaction-id": transactionId };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const maxAttempts = options.method === "GET" ? config.getRetries + 1 : 1;
  const logFields = {
    operation: options.operation,
    method: options.method,
    path: options.logPath ?? options.path,
    transactionId,
  };

  const pathTemplate = takePathTemplate(options.path);
  const tally = (startedAt: number, outcome: TGatewayAttempt["outcome"], status: number, errorCode?: string) => {
    const durationMs = performance.now() - startedAt;
    if (!options.control)
      tallyGatewayAttempt({ operation: options.operation, pathTemplate, outcome, durationMs, status, errorCode });
    return Math.round(durationMs);
  };

  const callOnce = async (
    attempt: number,
    span: Span,
  ): Promise<{ isRetry: true } | { isRetry: false; data: z.output<TSchema> }> => {
    injectTraceHeaders(headers);
    const startedAt = performance.now();
    let status: number;
    let text: string;
    try {
      const response = await request(url, {
        method: options.method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        dispatcher,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const code = errorCode(error);
      const isTimeout = code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
      const outcome = isTimeout || code === "UND_ERR_CONNECT_TIMEOUT" ? "timeout" : "unreachable";
      const durationMs = tally(startedAt, outcome, 0, code);
      log.warn({ gateway: { ...logFields, attempt, durationMs, error: code ?? String(error) } }, "gateway call failed");
      span.setAttribute("error.type", code ?? "connection error");
      if (isTimeout) {
        throw new GatewayTimeoutError("response", config.responseTimeoutMs, { ...context, cause: error });
      }
      const isTransient = code !== undefined && transientConnectionCodes.has(code);
      if (isTransient && attempt < maxAttempts) return { isRetry: true };
      if (code === "UND_ERR_CONNECT_TIMEOUT")
        throw new GatewayTimeoutError("connect", config.connectTimeoutMs, { ...context, cause: error });
      throw new GatewayUnavailableError(
        `${options.operation}: cannot reach ${config.baseUrl} (${code ?? "connection error"})`,
        attempt,
        { ...context, cause: error },
      );
    }

    span.setAttribute("http.response.status_code", status);
    if (status < 200 || status >= 300) {
      const body = parseGatewayErrorBody(text);
      const upstreamCode = body.shape === "pix" ? body.errorCode : body.shape === "payment" ? body.code : undefined;
      const durationMs = tally(
        startedAt,
        "http_error",
        status,
        upstreamCode === undefined ? undefined : String(upstreamCode),
      );
      log.warn(
        { gateway: { ...logFields, attempt, status, durationMs, upstreamCode } },
        "gateway call answered an error",
      );
      throw new GatewayHttpError(status, body, context);
    }
    let data: z.output<TSchema>;
    try {
      data = parseSuccess(options.schema, text, context);
    } catch (error) {
      tally(startedAt, "invalid_body", status, "invalid_body");
      throw error;
    }
    const refusal = options.refusal?.(data);
    const durationMs = tally(startedAt, refusal ? "refused" : "ok", status);
    log.info({ gateway: { ...logFields, attempt, status, durationMs } }, "gateway call");
    if (refusal) throw new GatewayRefusedError(refusal, data, context);
    return { isRetry: false, data };
  };

  for (let attempt = 1; ; attempt += 1) {
    const attributes = {
      "http.request.method": options.method,
      "url.template": pathTemplate,
      "gateway.operation": options.operation,
      "gateway.attempt": attempt,
      "gateway.transaction_id": transactionId,
    };
    const result = await withSpan(
      `gateway ${options.method} ${pathTemplate}`,
      attributes,
      (span) => callOnce(attempt, span),
      {
        kind: SpanKind.CLIENT,
      },
    );
    if (!result.isRetry) return result.data;
    await sleep(backoffMs(attempt - 1));
  }
}
