import { describe, expect, it } from "vitest";

import { formatDate, formatDateTime } from "./date-time";

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("formatDateTime", () => {
  it("shows São Paulo time (UTC-3) in pt-BR", () => {
    expect(formatDateTime("2025-11-21T17:30:00Z", "pt-BR")).toBe("21/11/2025, 14:30");
  });

  it("shows São Paulo time in English", () => {
    expect(plain(formatDateTime(new Date("2025-11-21T17:30:00Z"), "en"))).toBe("11/21/2025, 02:30 PM");
  });

  it("accepts epoch milliseconds", () => {
    expect(formatDateTime(Date.UTC(2025, 0, 2, 3, 4), "pt-BR")).toBe("02/01/2025, 00:04");
  });

  it("refuses an invalid date", () => {
    expect(() => formatDateTime("not a date")).toThrow(RangeError);
  });
});

describe("formatDate", () => {
  it("uses the São Paulo calendar day, not UTC's", () => {
    // 01:30 UTC on the 22nd is still 22:30 on the 21st in São Paulo.
    expect(formatDate("2025-11-22T01:30:00Z", "pt-BR")).toBe("21/11/2025");
    expect(formatDate("2025-11-22T01:30:00Z", "en")).toBe("11/21/2025");
  });
});
