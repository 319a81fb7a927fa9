import { describe, expect, it } from "vitest";
import { csvLines, neutralizeFormula } from "./csv-writer";

describe("csvLines", () => {
  it("defuses every text cell that a spreadsheet would run as a formula, whatever the column", () => {
    const cells = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "=cmd|' /C calc'!A0"];
    const line = csvLines([cells]);
    for (const cell of line.replace(/\r\n$/, "").split(";")) expect(cell.replace(/^"/, "")).toMatch(/^'/);
  });

  it("defuses a webhook's event header value in its column like any typed text", () => {
    expect(csvLines([["id-1", '=HYPERLINK("http://evil";"pix_charge.paid")', "ACCEPTED"]])).toBe(
      'id-1;"\'=HYPERLINK(""http://evil"";""pix_charge.paid"")";ACCEPTED\r\n',
    );
  });

  it("keeps numbers and formatted amounts (negative too) as numbers, and plain text as it is", () => {
    expect(csvLines([[12, -3, "-1.234,56", "-1,234.56", "1.234,56", "Ana Souza", "pix_charge.paid"]])).toBe(
      "12;-3;-1.234,56;-1,234.56;1.234,56;Ana Souza;pix_charge.paid\r\n",
    );
  });

  it("neutralizes the OWASP list and nothing else", () => {
    expect(neutralizeFormula("-")).toBe("'-");
    expect(neutralizeFormula("-abc")).toBe("'-abc");
    expect(neutralizeFormula("a=b")).toBe("a=b");
    expect(neutralizeFormula("")).toBe("");
  });
});
