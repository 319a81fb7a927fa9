import type { z } from "zod";
import { formatDateTime, now } from "../clock";

export type TFieldError = { campo: string; erro: string };

/**
 * The two error bodies of spec section 7: "pix" (7.1: Pix charges, refunds, webhooks, control API)
 * and "payment" (7.2 ErrorResponse: card payments, card tokens, payment links). An error thrown
 * without a flavor takes the flavor of the route that threw it.
 */
export type TErrorFlavor = "pix" | "payment";

const pixCodes: Record<number, string> = {
  400: "VALIDACAO_INVALIDA",
  401: "NAO_AUTORIZADO",
  404: "NAO_ENCONTRADO",
  405: "METODO_NAO_PERMITIDO",
  409: "ESTADO_INVALIDO",
  413: "REQUISICAO_MUITO_GRANDE",
  422: "VALOR_EXCEDIDO",
  500: "ERRO_INTERNO",
};

const paymentCodes: Record<number, string> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  422: "UNPROCESSABLE_ENTITY",
  500: "INTERNAL_ERROR",
};

export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: TFieldError[] = [],
    readonly code?: string,
    readonly flavor?: TErrorFlavor,
  ) {
    super(message);
    this.name = "SandboxHttpError";
  }
}

/** Section 7.2 ErrorResponse (code defaults from the status, e.g. 400 → VALIDATION_ERROR). */
export function paymentError(status: number, code: string | undefined, message: string, details: TFieldError[] = []) {
  return new SandboxHttpError(status, message, details, code, "payment");
}

/** An error rendered in the flavor of the route that throws it. */
export function httpError(status: number, message: string, details: TFieldError[] = []) {
  return new SandboxHttpError(status, message, details);
}

export function notFound(message = "Recurso não encontrado"): SandboxHttpError {
  return httpError(404, message);
}

// A field the spec does not define is refused by name: the gateway would otherwise drop it silently (a link
// created with the response's spelling `metodosPagamentoAceitos` would quietly become card-only).
const unknownFieldMessage = "campo desconhecido: não existe neste corpo na especificação";

function zodToDetails(error: z.ZodError): TFieldError[] {
  return error.issues.flatMap((issue) => {
    const prefix = issue.path.length > 0 ? `${issue.path.join(".")}.` : "";
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ campo: `${prefix}${key}`, erro: unknownFieldMessage }));
    }
    return [{ campo: issue.path.length > 0 ? issue.path.join(".") : "body", erro: issue.message }];
  });
}

export function validationError(details: TFieldError[], message = "Erro de validação dos campos"): SandboxHttpError {
  return httpError(400, message, details);
}

/** Parses `input` with `schema` or throws the 400 validation error of the route's flavor. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = zodToDetails(result.error);
  const unknown = details.filter((detail) => detail.erro === unknownFieldMessage).map((detail) => detail.campo);
  throw validationError(
    details,
    unknown.length > 0 ? `Campos desconhecidos: ${unknown.join(", ")}` : "Erro de validação dos campos",
  );
}

export function renderError(error: SandboxHttpError, routeFlavor: TErrorFlavor, transactionId: string): unknown {
  const flavor = error.flavor ?? routeFlavor;
  if (flavor === "pix") {
    return {
      timestamp: formatDateTime(now()),
      errorCode: error.code ?? pixCodes[error.status] ?? "ERRO",
      httpStatus: error.status,
      mensagem: error.message,
      xTransactionId: transactionId,
      details: error.details,
    };
  }
  return {
    code: error.code ?? paymentCodes[error.status] ?? "ERROR",
    message: error.message,
    details: error.details,
    traceId: transactionId,
    timestamp: new Date(now()).toISOString(),
  };
}
