import { describe, expect, it } from "vitest";
import { refusalMessageKey } from "./refusal-message";

describe("refusalMessageKey", () => {
  it.each([
    [{ codigo: "05", mensagem: "Transacao negada", merchantAdviceCode: "03" }, "declined"],
    [{ codigo: "51", mensagem: "Saldo insuficiente", merchantAdviceCode: "02" }, "insufficientFunds"],
    [{ codigo: "54", mensagem: "Cartao vencido", merchantAdviceCode: "01" }, "expiredCard"],
    [{ codigo: "14", mensagem: "Cartao invalido", merchantAdviceCode: "01" }, "checkCardData"],
    [{ codigo: "91", mensagem: "Emissor indisponivel", merchantAdviceCode: "02" }, "tryLater"],
    [{ codigo: null, mensagem: null, merchantAdviceCode: null }, "declined"],
  ] as const)("maps %o to %s", (refusal, key) => {
    expect(refusalMessageKey(refusal)).toBe(key);
  });
});
