import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { zodIssuesToFieldErrors } from "@/lib/actions/field-errors";
import en from "@/lib/i18n/messages/en.json";
import ptBR from "@/lib/i18n/messages/pt-BR.json";
import { type TTerminalPaymentInput, ZTerminalPaymentInput } from "./schemas";

const valid = (): TTerminalPaymentInput => ({
  idempotencyKey: randomUUID(),
  amountCents: 10_001,
  orderId: "VT-ABC-123",
  installmentType: "4",
  installmentCount: 3,
  card: { kind: "typed", number: "4111 1111 1111 1111", expiry: "12/39", securityCode: "123", saveCard: false },
});

function errorsOf(input: unknown): Record<string, string> {
  const result = ZTerminalPaymentInput.safeParse(input);
  return result.success ? {} : zodIssuesToFieldErrors(result.error.issues);
}

describe("the terminal's form schema", () => {
  it("accepts a typed card, keeping only digits of the number", () => {
    const parsed = ZTerminalPaymentInput.parse(valid());
    expect(parsed.card).toEqual({
      kind: "typed",
      number: "4111111111111111",
      expiry: "12/39",
      securityCode: "123",
      saveCard: false,
    });
  });

  it("accepts a saved card by token", () => {
    expect(errorsOf({ ...valid(), card: { kind: "saved", token: "0123456789abcdef0123456789abcdef" } })).toEqual({});
  });

  it("names each wrong field with a message key", () => {
    expect(
      errorsOf({
        ...valid(),
        amountCents: 0,
        orderId: "pedido com espaço",
        card: { kind: "typed", number: "4111 1111 1111 1112", expiry: "13/30", securityCode: "12" },
      }),
    ).toEqual({
      amountCents: "amountTooSmall",
      orderId: "orderIdInvalid",
      "card.number": "invalidNumber",
      "card.expiry": "invalidExpiry",
      "card.securityCode": "securityCodeInvalid",
    });
    expect(errorsOf({ ...valid(), card: { kind: "typed", number: "", expiry: "01/20", securityCode: "" } })).toEqual({
      "card.number": "numberRequired",
      "card.expiry": "cardExpired",
      "card.securityCode": "securityCodeRequired",
    });
    expect(errorsOf({ ...valid(), card: { kind: "saved", token: "" } })).toEqual({ "card.token": "tokenRequired" });
    expect(errorsOf({ ...valid(), card: undefined })).toEqual({ card: "cardRequired" });
  });

  it("takes a count only for installment plans, and never more installments than cents", () => {
    expect(errorsOf({ ...valid(), installmentType: "3", installmentCount: 2 })).toEqual({
      installmentCount: "singleInstallmentOnly",
    });
    expect(errorsOf({ ...valid(), installmentType: "7", installmentCount: 1 })).toEqual({});
    expect(errorsOf({ ...valid(), installmentCount: 13 })).toEqual({ installmentCount: "installmentCountInvalid" });
    expect(errorsOf({ ...valid(), installmentType: "5" })).toEqual({ installmentType: "installmentTypeRequired" });
    expect(errorsOf({ ...valid(), amountCents: 2, installmentCount: 3 })).toEqual({
      amountCents: "amountBelowInstallments",
    });
  });

  it("has every message key it can give in both languages", () => {
    const keys = [
      ...Object.values(errorsOf({ ...valid(), amountCents: 0.5, orderId: "", card: { kind: "saved", token: "a b" } })),
      "amountRequired",
      "amountTooLarge",
      "orderIdTooLong",
      "invalidIdempotencyKey",
      "unknownBrand",
      "expiryRequired",
      "tokenUnknown",
      "tokenInactive",
      "gatewayRejected",
      "requestConflict",
      "gatewayTimeout",
      "gatewayUnavailable",
    ];
    for (const messages of [en, ptBR]) {
      const errors = messages.cardPayments.terminal.errors as Record<string, string>;
      expect(keys.filter((key) => !errors[key])).toEqual([]);
    }
  });
});
