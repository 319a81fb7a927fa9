import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parsePosTerminalCodes, ZSavePosTenantTerminalsInput } from "./admin-schemas";

describe("tenant terminal codes (the textarea)", () => {
  const tenantId = randomUUID();
  const parse = (terminals: string) => ZSavePosTenantTerminalsInput.safeParse({ tenantId, terminals });

  it("splits on lines and commas, trims, drops blanks and keeps each code once, in typed order", () => {
    expect(parsePosTerminalCodes(" T-01 \r\nT_02,T03 ,, \n\nT-01,t03\n")).toEqual(["T-01", "T_02", "T03", "t03"]);
    expect(parsePosTerminalCodes("")).toEqual([]);
    expect(parsePosTerminalCodes(" \n , \n")).toEqual([]);
  });

  it("takes an empty list (the tenant claims no terminal) and codes of 1 to 32 of [A-Za-z0-9_-]", () => {
    expect(parse("")).toMatchObject({ success: true, data: { tenantId, terminals: [] } });
    const longest = "A".repeat(32);
    expect(parse(`x\n${longest},a_b-9`)).toMatchObject({ success: true, data: { terminals: ["x", longest, "a_b-9"] } });
  });

  it("refuses a bad code with its place in the parsed list, so the form can name it", () => {
    const result = parse(`GOOD\nT 01,ok\nT/02\nGOOD\n${"B".repeat(33)}`);
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((issue) => [issue.path.join("."), issue.message]);
    // Parsed: GOOD, "T 01", ok, T/02, BBB…: the repeated GOOD is dropped before the indexes are counted.
    expect(issues).toEqual([
      ["terminals.1", "invalidTerminal"],
      ["terminals.3", "invalidTerminal"],
      ["terminals.4", "invalidTerminal"],
    ]);
  });

  it("refuses more than 500 codes, but not 500 written with repeats", () => {
    const codes = Array.from({ length: 501 }, (_, index) => `T${index}`);
    expect(parse(codes.join("\n")).error?.issues).toEqual([
      expect.objectContaining({ path: ["terminals"], message: "tooManyTerminals" }),
    ]);
    expect(parse([...codes.slice(0, 500), ...codes.slice(0, 500)].join(",")).success).toBe(true);
  });

  it("refuses an unknown tenant", () => {
    expect(ZSavePosTenantTerminalsInput.safeParse({ tenantId: "x", terminals: "T1" }).error?.issues[0]?.message).toBe(
      "invalidTenant",
    );
  });
});
