import type { z } from "zod";
import { zodIssuesToFieldErrors } from "@/lib/actions/field-errors";
import { AppError } from "@/lib/errors";
import {
  type TFieldError,
  type TPaymentErrorResponse,
  type TPixApiErrorBody,
  ZPaymentErrorResponse,
  ZPixApiErrorBody,
} from "./schemas/errors";

// 7.1 (Pix, webhooks), 7.2 (card payments), or the raw text when neither (a proxy's HTML page, an empty body).
export type TGatewayErrorBody =
  | ({ shape: "pix" } & TPixApiErrorBody)
  | ({ shape: "payment" } & TPaymentErrorResponse)
  | { shape: "text"; text: string };

export function parseGatewayErrorBody(text: string): TGatewayErrorBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { shape: "text", text };
  }
  const pix = ZPixApiErrorBody.safeParse(json);
  if (pix.success) return { shape: "pix", ...pix.data };
  const payment = ZPaymentErrorResponse.safeParse(json);
  if (payment.success) return { shape: "payment", ...payment.data };
  return { shape: "text", text };
}

type GatewayErrorContext = { operation: string; transactionId: string; cause?: unknown };

export class GatewayError extends Error {
  readonly operation: string;
  readonly transactionId: string;

  constructor(message: string, context: GatewayErrorContext) {
    super(message, { cause: context.cause });
    this.name = new.target.name;
    this.operation = context.operation;
    this.transactionId = context.transactionId;
  }
}

export class GatewayHttpError extends GatewayError {
  readonly status: number;
  readonly body: TGatewayErrorBody;

  constructor(status: number, body: TGatewayErrorBody, context: GatewayErrorContext) {
    super(
      `${context.operation}: HTTP ${status}${body.shape === "text" ? "" : ` (${upstreamErrorCode(body)}: ${upstreamMessage(body)})`}`,
      context,
    );
    this.status = status;
    this.body = body;
  }

  get upstreamMessage(): string | undefined {
    return upstreamMessage(this.body);
  }

  get errorCode(): string | undefined {
    return upstreamErrorCode(this.body);
  }

  get fieldErrors(): TFieldError[] {
    return this.body.shape === "text" ? [] : (this.body.details ?? []);
  }
}

function upstreamMessage(body: TGatewayErrorBody): string | undefined {
  if (body.shape === "pix") return body.mensagem;
  if (body.shape === "payment") return body.message;
  return undefined;
}

function upstreamErrorCode(body: TGatewayErrorBody): string | undefined {
  if (body.shape === "pix") return body.errorCode;
  if (body.shape === "payment") return body.code;
  return undefined;
}

export type TGatewayRefusal = { codigo: string; mensagem: string | null; merchantAdviceCode: string | null };

// 7.4: a 200/201 card answer that failed at the authorizer (rules in refusal.ts); `response` is the parsed body.
export class GatewayRefusedError extends GatewayError {
  readonly codigo: string;
  readonly mensagem: string | null;
  readonly merchantAdviceCode: string | null;
  readonly response: unknown;

  constructor(refusal: TGatewayRefusal, response: unknown, context: GatewayErrorContext) {
    super(`${context.operation}: refused (${refusal.codigo} ${refusal.mensagem ?? ""})`.trim(), context);
    this.codigo = refusal.codigo;
    this.mensagem = refusal.mensagem;
    this.merchantAdviceCode = refusal.merchantAdviceCode;
    this.response = response;
  }
}

// "request": a body we refused to send; "response": an upstream answer we refuse to pass on.
export class GatewaySchemaError extends GatewayError {
  readonly direction: "request" | "response";
  readonly issues: z.core.$ZodIssue[];
  readonly rawBody: string;

  constructor(
    direction: "request" | "response",
    issues: z.core.$ZodIssue[],
    rawBody: string,
    context: GatewayErrorContext,
  ) {
    const first = issues[0];
    super(
      `${context.operation}: ${direction} does not match the schema${first ? ` (${first.path.join(".") || "body"}: ${first.message})` : ""}`,
      context,
    );
    this.direction = direction;
    this.issues = issues;
    this.rawBody = rawBody;
  }
}

// No connection (refused, reset, DNS, TLS) after a GET's retries; also a missing or unreadable certificate/key.
export class GatewayUnavailableError extends GatewayError {
  readonly attempts: number;

  constructor(message: string, attempts: number, context: GatewayErrorContext) {
    super(message, context);
    this.attempts = attempts;
  }
}

export class GatewayTimeoutError extends GatewayError {
  readonly phase: "connect" | "response";
  readonly timeoutMs: number;

  constructor(phase: "connect" | "response", timeoutMs: number, context: GatewayErrorContext) {
    super(
      `${context.operation}: no ${phase === "connect" ? "connection" : "response"} within ${timeoutMs} ms`,
      context,
    );
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}

export function isGatewayNotFound(error: unknown): error is GatewayHttpError {
  return error instanceof GatewayHttpError && error.status === 404;
}

export function isGatewayError(error: unknown): error is GatewayError {
  return error instanceof GatewayError;
}

function fieldErrorsOf(details: TFieldError[]): Record<string, string> | undefined {
  if (details.length === 0) return undefined;
  const fieldErrors: Record<string, string> = {};
  for (const { campo, erro } of details) fieldErrors[campo] ??= erro;
  return fieldErrors;
}

function httpToAppError(error: GatewayHttpError): AppError {
  const reason = error.upstreamMessage;
  const options = {
    cause: error,
    fieldErrors: fieldErrorsOf(error.fieldErrors),
    params: { status: error.status, reason: reason ?? "" },
  };
  switch (error.status) {
    case 400:
      return new AppError(
        "VALIDATION_FAILED",
        reason ? "errors.gateway.rejectedBecause" : "errors.gateway.rejected",
        options,
      );
    case 404:
      return new AppError("NOT_FOUND", reason ? "errors.gateway.notFoundBecause" : "errors.gateway.notFound", options);
    case 409:
      return new AppError("CONFLICT", reason ? "errors.gateway.said" : "errors.gateway.conflict", options);
    case 422:
      return new AppError("UNPROCESSABLE", reason ? "errors.gateway.said" : "errors.gateway.unprocessable", options);
    case 401:
    case 403:
      return new AppError("UPSTREAM_REJECTED", "errors.gateway.certificateRejected", options);
    default:
      if (error.status >= 500) return new AppError("UPSTREAM_UNAVAILABLE", "errors.gateway.failed", options);
      return new AppError(
        "UPSTREAM_REJECTED",
        reason ? "errors.gateway.answeredHttpBecause" : "errors.gateway.answeredHttp",
        options,
      );
  }
}

function hasCode(error: unknown, codes: string[]): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown[] };
  if (typeof code === "string" && codes.includes(code)) return true;
  return (errors ?? []).some((item) => hasCode(item, codes)) || hasCode(cause, codes);
}

// True only when a failed POST/PUT surely never took effect upstream, so it may be resubmitted with its
// idempotency key; after a timeout, a cut connection or an unreadable answer a second write could duplicate it.
export function isCertainlyNotApplied(error: unknown): boolean {
  if (error instanceof GatewayHttpError) return error.status < 500;
  if (error instanceof GatewaySchemaError) return error.direction === "request";
  if (error instanceof GatewayTimeoutError) return error.phase === "connect";
  if (error instanceof GatewayUnavailableError)
    return error.attempts === 0 || hasCode(error.cause, ["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT"]);
  return false;
}

// The raw upstream detail stays on `cause`, for the log.
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof GatewayHttpError) return httpToAppError(error);
  if (error instanceof GatewayRefusedError) {
    const params = { reason: error.mensagem ?? error.codigo, advice: error.merchantAdviceCode ?? "" };
    return new AppError(
      "UNPROCESSABLE",
      error.merchantAdviceCode ? "errors.gateway.refusedWithAdvice" : "errors.gateway.refused",
      { cause: error, params },
    );
  }
  if (error instanceof GatewaySchemaError) {
    if (error.direction === "request") {
      const fieldErrors = zodIssuesToFieldErrors(error.issues);
      return new AppError("VALIDATION_FAILED", "errors.codes.VALIDATION_FAILED", { cause: error, fieldErrors });
    }
    return new AppError("UPSTREAM_REJECTED", "errors.gateway.unreadableAnswer", { cause: error });
  }
  if (error instanceof GatewayTimeoutError) {
    return new AppError(
      "UPSTREAM_TIMEOUT",
      error.phase === "connect" ? "errors.gateway.connectTimeout" : "errors.gateway.answerTimeout",
      { cause: error },
    );
  }
  if (error instanceof GatewayUnavailableError) {
    return new AppError("UPSTREAM_UNAVAILABLE", "errors.gateway.unreachable", { cause: error });
  }
  return new AppError("INTERNAL", "errors.internal", { cause: error });
}

// What may be logged of a failure: its kind, never the error with its request (which may hold card data).
export function describeGatewayFailure(error: unknown) {
  if (error instanceof GatewayHttpError)
    return {
      errorName: error.name,
      status: error.status,
      upstreamCode: error.errorCode,
      fields: error.fieldErrors.map((field) => field.campo),
    };
  if (error instanceof AppError) return { errorName: error.name, code: error.code };
  return { errorName: error instanceof Error ? error.name : typeof error };
}
