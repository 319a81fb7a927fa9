import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { describeGatewayFailure, GatewayHttpError, GatewaySchemaError, parseGatewayErrorBody } from "./errors";

const context = { operation: "payments.create", transactionId: "tx-1" };

// The card number below stands for anything a request or an answer may carry: none of it may reach the log.
describe("describeGatewayFailure", () => {
  const secret = "4111111111111111";

  it("keeps the kind, the status and the field names, never values, messages or bodies", () => {
    const body = JSON.stringify({
      code: "VALIDATION_ERROR",
      message: `card ${secret} refused`,
      details: [{ campo: "numeroCartao", erro: `invalid ${secret}` }],
      traceId: "t",
    });
    const http = new GatewayHttpError(400, parseGatewayErrorBody(body), { ...context, cause: new Error(secret) });
    expect(describeGatewayFailure(http)).toEqual({
      errorName: "GatewayHttpError",
      status: 400,
      upstreamCode: "VALIDATION_ERROR",
      fields: ["numeroCartao"],
    });
    const schema = new GatewaySchemaError("response", [], `{"numeroCartao":"${secret}"}`, context);
    for (const error of [http, schema, new Error(secret)])
      expect(JSON.stringify(describeGatewayFailure(error))).not.toContain(secret);
  });

  it("names an AppError by its code and anything else by its type", () => {
    expect(describeGatewayFailure(new AppError("NOT_FOUND", "errors.internal"))).toMatchObject({ code: "NOT_FOUND" });
    expect(describeGatewayFailure("boom")).toEqual({ errorName: "string" });
  });
});
