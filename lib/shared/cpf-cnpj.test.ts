import { describe, expect, it } from "vitest";
import {
  formatCnpj,
  formatCpf,
  formatCpfOrCnpj,
  isValidCnpj,
  isValidCpf,
  isValidCpfOrCnpj,
  normalizeCnpj,
  onlyDigits,
} from "./cpf-cnpj";

describe("onlyDigits", () => {
  it("drops every non-digit", () => {
    expect(onlyDigits("529.982.247-25")).toBe("52998224725");
    expect(onlyDigits(" 11.222.333/0001-81 ")).toBe("11222333000181");
    expect(onlyDigits("")).toBe("");
  });
});

describe("isValidCpf", () => {
  it.each(["52998224725", "529.982.247-25", "11144477735", "111.444.777-35", "00000000191"])("accepts %s", (cpf) =>
    expect(isValidCpf(cpf)).toBe(true),
  );

  it.each([
    ["wrong first check digit", "52998224715"],
    ["wrong second check digit", "52998224726"],
    ["too short", "5299822472"],
    ["too long", "529982247250"],
    ["repeated digits", "11111111111"],
    ["all zeros", "000.000.000-00"],
    ["letters", "529a98224725"],
    ["a CNPJ", "11222333000181"],
    ["empty", ""],
  ])("rejects %s", (_label, cpf) => expect(isValidCpf(cpf)).toBe(false));
});

describe("isValidCnpj", () => {
  it.each(["11222333000181", "11.222.333/0001-81", "45997418000153", "00000000000191"])("accepts %s", (cnpj) =>
    expect(isValidCnpj(cnpj)).toBe(true),
  );

  it.each([
    ["wrong first check digit", "11222333000191"],
    ["wrong second check digit", "11222333000182"],
    ["too short", "1122233300018"],
    ["repeated digits", "22222222222222"],
    ["letters", "11.222.333/0001-8X"],
    ["a CPF", "52998224725"],
    ["empty", ""],
  ])("rejects %s", (_label, cnpj) => expect(isValidCnpj(cnpj)).toBe(false));
});

// The Receita Federal's example of the 2026 format: letters count as char code − 48 in the check-digit weights.
describe("isValidCnpj with the 2026 alphanumeric format", () => {
  const alphanumeric = { allowAlphanumeric: true };

  it.each(["12ABC34501DE35", "12.ABC.345/01DE-35", "12.abc.345/01de-35", "11222333000181", "11.222.333/0001-81"])(
    "accepts %s",
    (cnpj) => expect(isValidCnpj(cnpj, alphanumeric)).toBe(true),
  );

  it.each([
    ["wrong first check digit", "12ABC34501DE45"],
    ["wrong second check digit", "12ABC34501DE36"],
    ["a letter in a check digit", "12ABC34501DE3A"],
    ["too short", "12ABC34501D35"],
    ["other symbols", "12ABC345*1DE35"],
    ["repeated digits", "00000000000000"],
    ["empty", ""],
  ])("rejects %s", (_label, cnpj) => expect(isValidCnpj(cnpj, alphanumeric)).toBe(false));

  it("stays numeric-only unless asked, for callers that keep digits", () => {
    expect(isValidCnpj("12ABC34501DE35")).toBe(false);
    expect(isValidCpfOrCnpj("12ABC34501DE35")).toBe(false);
    expect(isValidCpfOrCnpj("12ABC34501DE35", alphanumeric)).toBe(true);
    expect(isValidCpfOrCnpj("52998224725", alphanumeric)).toBe(true);
  });

  it("normalizes and formats", () => {
    expect(normalizeCnpj("12.abc.345/01de-35")).toBe("12ABC34501DE35");
    expect(formatCnpj("12abc34501de35")).toBe("12.ABC.345/01DE-35");
    expect(formatCpfOrCnpj("12ABC34501DE35")).toBe("12.ABC.345/01DE-35");
  });
});

describe("isValidCpfOrCnpj", () => {
  it("accepts either kind and rejects anything else", () => {
    expect(isValidCpfOrCnpj("52998224725")).toBe(true);
    expect(isValidCpfOrCnpj("11222333000181")).toBe(true);
    expect(isValidCpfOrCnpj("123456789")).toBe(false);
  });
});

describe("formatting", () => {
  it("formats a CPF from digits or an already formatted value", () => {
    expect(formatCpf("52998224725")).toBe("529.982.247-25");
    expect(formatCpf("529.982.247-25")).toBe("529.982.247-25");
  });

  it("formats a CNPJ", () => {
    expect(formatCnpj("11222333000181")).toBe("11.222.333/0001-81");
  });

  it("leaves values of the wrong length unchanged", () => {
    expect(formatCpf("123")).toBe("123");
    expect(formatCnpj("52998224725")).toBe("52998224725");
  });

  it("picks the format by length", () => {
    expect(formatCpfOrCnpj("52998224725")).toBe("529.982.247-25");
    expect(formatCpfOrCnpj("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatCpfOrCnpj("X1234567")).toBe("X1234567");
  });
});
