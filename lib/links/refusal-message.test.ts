import { describe, expect, it } from "vitest";
import { refusalMessageKey } from "./refusal-message";

describe("refusalMessageKey", () => {
  it.each([
    [{ codigo: "05", mensagem: "Transacao negada", merchantAdviceCode: "03" }, "declined"],
    // A card tester must not learn which cards are live: funds, expiry and bad data read the same.
    [{ codigo: "51", mensagem: "Saldo insuficiente", merchantAdviceCode: "02" }, "declined"],
    [{ codigo: "54", mensagem: "Cartao vencido", merchantAdviceCode: "01" }, "declined"],
    [{ codigo: "14", mensagem: "Cartao invalido", merchantAdviceCode: "01" }, "declined"],
    [{ codigo: "91", mensagem: "Emissor indisponivel", merchantAdviceCode: "02" }, "tryLater"],
    [{ codigo: null, mensagem: null, merchantAdviceCode: null }, "declined"],
  ] as const)("maps %o to %s", (refusal, key) => {
    expect(refusalMessageKey(refusal)).toBe(key);
  });
});
