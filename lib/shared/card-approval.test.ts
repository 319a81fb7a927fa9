import { describe, expect, it } from "vitest";
import { isCardPaymentApproved } from "./card-approval";

describe("isCardPaymentApproved", () => {
  it("approves codigo 0 with the authorized message only", () => {
    expect(isCardPaymentApproved({ codigo: "0", mensagem: "Transacao autorizada" })).toBe(true);
  });

  it("refuses codigo 0 with any other message", () => {
    for (const mensagem of ["Transacao pendente", "transacao autorizada", "Transacao autorizada ", "", null, undefined])
      expect(isCardPaymentApproved({ codigo: "0", mensagem })).toBe(false);
  });

  it("refuses any other codigo, even with the authorized message", () => {
    for (const codigo of ["00", "05", "51", " 0", ""])
      expect(isCardPaymentApproved({ codigo, mensagem: "Transacao autorizada" })).toBe(false);
  });
});
