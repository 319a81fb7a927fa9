import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { englishErrorText } from "@/lib/i18n/error-text";
import {
  GatewayHttpError,
  GatewayRefusedError,
  GatewaySchemaError,
  GatewayTimeoutError,
  GatewayUnavailableError,
  parseGatewayErrorBody,
  toAppError,
} from "./errors";

const context = { operation: "test.op", transactionId: "tx-1" };
const pixBody = (status: number, mensagem: string, details: Array<{ campo: string; erro: string }> = []) =>
  JSON.stringify({
    timestamp: "2026-01-01T00:00:00-03:00",
    errorCode: "X",
    httpStatus: status,
    mensagem,
    xTransactionId: "tx-1",
    details,
  });

describe("parseGatewayErrorBody", () => {
  it("recognizes the 7.1 body, the 7.2 ErrorResponse and anything else as text", () => {
    expect(parseGatewayErrorBody(pixBody(409, "Cobrança paga"))).toMatchObject({
      shape: "pix",
      mensagem: "Cobrança paga",
    });
    expect(
      parseGatewayErrorBody(JSON.stringify({ code: "VALIDATION_ERROR", message: "bad", details: [], traceId: "t" })),
    ).toMatchObject({
      shape: "payment",
      code: "VALIDATION_ERROR",
    });
    expect(parseGatewayErrorBody("<html>Bad gateway</html>")).toEqual({
      shape: "text",
      text: "<html>Bad gateway</html>",
    });
    expect(parseGatewayErrorBody(JSON.stringify({ unexpected: true }))).toMatchObject({ shape: "text" });
  });
});

describe("toAppError", () => {
  const http = (status: number, text: string) => new GatewayHttpError(status, parseGatewayErrorBody(text), context);

  it("maps the statuses of section 7.3 to AppError codes, with the upstream message where it helps", () => {
    expect(toAppError(http(409, pixBody(409, "Cobrança já paga")))).toMatchObject({
      code: "CONFLICT",
      messageKey: "errors.gateway.said",
      params: { reason: "Cobrança já paga" },
    });
    expect(toAppError(http(422, pixBody(422, "Valor excede o restante")))).toMatchObject({
      code: "UNPROCESSABLE",
      params: { reason: "Valor excede o restante" },
    });
    expect(englishErrorText(toAppError(http(422, pixBody(422, "Valor excede o restante"))))).toBe(
      "Valor excede o restante",
    );
    expect(toAppError(http(404, pixBody(404, "Não encontrada"))).code).toBe("NOT_FOUND");
    expect(toAppError(http(500, pixBody(500, "Erro interno"))).code).toBe("UPSTREAM_UNAVAILABLE");
    expect(toAppError(http(502, "<html/>")).code).toBe("UPSTREAM_UNAVAILABLE");
  });

  it("turns field details of a 400 into field errors, for both body shapes", () => {
    const pix = toAppError(
      http(400, pixBody(400, "Erro de validação", [{ campo: "amount", erro: "valor mínimo 0.01" }])),
    );
    expect(pix).toMatchObject({ code: "VALIDATION_FAILED", fieldErrors: { amount: "valor mínimo 0.01" } });
    const payment = toAppError(
      http(
        400,
        JSON.stringify({ code: "VALIDATION_ERROR", message: "x", details: [{ campo: "numeroCartao", erro: "Luhn" }] }),
      ),
    );
    expect(payment.fieldErrors).toEqual({ numeroCartao: "Luhn" });
  });

  it("maps refusals, schema mismatches, timeouts and unreachable upstreams", () => {
    const refused = new GatewayRefusedError(
      { codigo: "05", mensagem: "Transacao negada", merchantAdviceCode: "03" },
      {},
      context,
    );
    expect(toAppError(refused)).toMatchObject({ code: "UNPROCESSABLE", params: { reason: "Transacao negada" } });
    expect(englishErrorText(toAppError(refused))).toBe("Refused by the authorizer: Transacao negada (advice code 03).");
    const issues = [{ code: "custom" as const, path: ["txid"], message: "required", input: undefined }];
    expect(toAppError(new GatewaySchemaError("response", issues, "{}", context)).code).toBe("UPSTREAM_REJECTED");
    expect(toAppError(new GatewaySchemaError("request", issues, "", context))).toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: { txid: "required" },
    });
    expect(toAppError(new GatewayTimeoutError("response", 100, context)).code).toBe("UPSTREAM_TIMEOUT");
    expect(toAppError(new GatewayUnavailableError("down", 3, context)).code).toBe("UPSTREAM_UNAVAILABLE");
  });

  it("keeps an AppError and hides anything else behind INTERNAL, with the original as cause", () => {
    const appError = new AppError("FORBIDDEN", "errors.auth.permissionRequired");
    expect(toAppError(appError)).toBe(appError);
    const unknown = new Error("boom");
    expect(toAppError(unknown)).toMatchObject({ code: "INTERNAL", cause: unknown });
  });

  it("keeps the transaction id and operation on every gateway error", () => {
    const error = http(404, pixBody(404, "x"));
    expect(error).toMatchObject({ name: "GatewayHttpError", operation: "test.op", transactionId: "tx-1", status: 404 });
    expect(toAppError(error).cause).toBe(error);
  });
});
