import { describe, expect, it } from "vitest";
import { apiPath } from "./http";
import { codeRefusal, paymentRefusal } from "./refusal";

describe("7.4 refusals", () => {
  it("a payment fails unless codigo is 0 and mensagem is Transacao autorizada", () => {
    expect(paymentRefusal({ codigo: "0", mensagem: "Transacao autorizada" })).toBeUndefined();
    expect(paymentRefusal({ codigo: "05", mensagem: "Transacao negada", merchantAdviceCode: "03" })).toEqual({
      codigo: "05",
      mensagem: "Transacao negada",
      merchantAdviceCode: "03",
    });
    expect(paymentRefusal({ codigo: "0", mensagem: "Pendente" })).toMatchObject({ codigo: "0" });
  });

  it("other card results fail only on their code", () => {
    expect(codeRefusal({ codigo: "0", mensagem: "Cancelamento efetuado" })).toBeUndefined();
    expect(codeRefusal({ code: "0", message: "Sucesso" })).toBeUndefined();
    expect(codeRefusal({ code: "12", message: "Cartao invalido" })).toEqual({
      codigo: "12",
      mensagem: "Cartao invalido",
      merchantAdviceCode: null,
    });
  });
});

describe("apiPath", () => {
  it("encodes each interpolated value as one path segment", () => {
    expect(apiPath`/api/v1/pix-charges/${"a/b?c"}/cancel`).toBe("/api/v1/pix-charges/a%2Fb%3Fc/cancel");
  });
});
