import { describe, expect, it } from "vitest";
import { parseGatewayDateTime } from "./gateway-date";

describe("parseGatewayDateTime", () => {
  it("reads the card area's DD/MM/YYYY'T'HH:mm as Brasília time", () => {
    expect(parseGatewayDateTime("24/11/2026T21:30")?.toISOString()).toBe("2026-11-25T00:30:00.000Z");
    expect(parseGatewayDateTime("01/01/2027T00:00")?.toISOString()).toBe("2027-01-01T03:00:00.000Z");
  });

  it("reads ISO 8601, a value without a zone as Brasília time", () => {
    expect(parseGatewayDateTime("2026-11-24T10:00:00-03:00")?.toISOString()).toBe("2026-11-24T13:00:00.000Z");
    expect(parseGatewayDateTime("2026-11-24T10:00:00")?.toISOString()).toBe("2026-11-24T13:00:00.000Z");
    expect(parseGatewayDateTime("2026-11-24T13:00:00Z")?.toISOString()).toBe("2026-11-24T13:00:00.000Z");
  });

  it("answers null for what it cannot read, never a wrong instant", () => {
    for (const value of [null, undefined, "", "31/02/2026T10:00", "2026/11/24", "24/11/2026 10:00", "tomorrow"])
      expect(parseGatewayDateTime(value)).toBeNull();
  });
});
