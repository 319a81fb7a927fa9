import { describe, expect, it } from "vitest";
import { cardBin, detectCardBrand, maskCardNumber, passesLuhn } from "../../lib/shared/card";
import { decideAuthorization, TEST_CARDS } from "./test-cards";

const may2026 = Date.parse("2026-05-15T12:00:00Z");
const facts = (number: string, dataExpiracao?: string) => ({
  bin: cardBin(number),
  suffix: maskCardNumber(number),
  dataExpiracao,
});

describe("sandbox test cards", () => {
  it("are valid numbers of a known brand, each with its own BIN + suffix", () => {
    for (const card of TEST_CARDS) {
      expect(passesLuhn(card.number), card.number).toBe(true);
      expect(detectCardBrand(card.number), card.number).not.toBeNull();
    }
    expect(new Set(TEST_CARDS.map((card) => `${cardBin(card.number)}:${maskCardNumber(card.number)}`)).size).toBe(
      TEST_CARDS.length,
    );
  });

  it("decide the documented outcomes", () => {
    expect(decideAuthorization(facts("4111111111111111"), may2026)).toEqual({ kind: "authorized" });
    expect(decideAuthorization(facts("5555555555554444"), may2026)).toEqual({ kind: "authorized" });
    expect(decideAuthorization(facts("4000000000000002"), may2026)).toMatchObject({
      kind: "refused",
      codigo: "05",
      merchantAdviceCode: "03",
    });
    expect(decideAuthorization(facts("4000000000009995"), may2026)).toMatchObject({
      kind: "refused",
      codigo: "51",
      merchantAdviceCode: "02",
    });
    expect(decideAuthorization(facts("4000000000000069"), may2026)).toMatchObject({
      kind: "refused",
      codigo: "54",
      merchantAdviceCode: "01",
    });
    expect(decideAuthorization(facts("4000000000000119"), may2026)).toEqual({ kind: "error" });
    expect(decideAuthorization(facts("4000000000000077"), may2026)).toEqual({
      kind: "authorized",
      mensagem: "Transacao pendente de confirmacao",
    });
  });

  it("authorize any other card, and refuse one whose expiry month has passed", () => {
    expect(decideAuthorization(facts("378282246310005"), may2026)).toEqual({ kind: "authorized" });
    expect(decideAuthorization(facts("4111111111111111", "05/26"), may2026)).toEqual({ kind: "authorized" });
    expect(decideAuthorization(facts("4111111111111111", "04/26"), may2026)).toMatchObject({
      kind: "refused",
      codigo: "54",
    });
  });
});
