import { describe, expect, it } from "vitest";
import { permissionsOfRole } from "@/lib/auth/roles";
import { canSeeFullDocuments, documentFor, maskDocument } from "./personal-data";

describe("maskDocument", () => {
  it("hides a CPF's first three and check digits, formatted or not", () => {
    expect(maskDocument("12345678901")).toBe("***.456.789-**");
    expect(maskDocument("123.456.789-01")).toBe("***.456.789-**");
  });

  it("hides a CNPJ's root start and check digits, numeric or alphanumeric", () => {
    expect(maskDocument("12345678000195")).toBe("**.345.678/0001-**");
    expect(maskDocument("12.ABC.345/01DE-35")).toBe("**.ABC.345/01DE-**");
  });

  it("keeps only the last three characters of any other document", () => {
    expect(maskDocument("P1234567")).toBe("*****567");
    expect(maskDocument("AB")).toBe("**");
  });
});

describe("documentFor", () => {
  it("shows the whole document only to a role holding customers.viewDocuments", () => {
    const holderOf = (roleId: string) => ({ permissions: permissionsOfRole(roleId, null) });
    expect(canSeeFullDocuments(holderOf("administrator"))).toBe(true);
    expect(canSeeFullDocuments(holderOf("analyst"))).toBe(true);
    expect(canSeeFullDocuments(holderOf("operations"))).toBe(false);
    expect(documentFor(holderOf("administrator"), "12345678901")).toBe("12345678901");
    expect(documentFor(holderOf("operations"), "12345678901")).toBe("***.456.789-**");
    expect(documentFor({ permissions: ["customers.viewDocuments"] }, "12345678901")).toBe("12345678901");
  });
});
