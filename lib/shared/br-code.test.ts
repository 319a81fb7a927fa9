import { parsePix } from "pix-utils";
import { describe, expect, it } from "vitest";
import { buildDynamicPixBrCode, crc16ccitt, parseBrCode } from "./br-code";

// Static example of the BCB Pix BR Code manual, with its published CRC.
const bcbManualExample =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

const input = {
  payloadUrl: "127.0.0.1:8443/pix/v2/cobv/2b1c3a42-5d1e-4c6e-9a1a-0c5d7f9f1234",
  merchantName: "Padaria São João do Açaí Ltda ME",
  merchantCity: "São José dos Campos",
  amountCents: 12345,
  txid: "abcdefghijklmnopqrstuvwxyz0123456",
};

describe("crc16ccitt", () => {
  it("matches the CRC-16/CCITT-FALSE check value and the BCB manual example", () => {
    expect(crc16ccitt("123456789")).toBe("29B1");
    expect(crc16ccitt(bcbManualExample.slice(0, -4))).toBe("1D3D");
  });
});

describe("parseBrCode", () => {
  it("reads the BCB manual example", () => {
    const parsed = parseBrCode(bcbManualExample);
    expect(parsed).toMatchObject({
      gui: "br.gov.bcb.pix",
      pixKey: "123e4567-e12b-12d1-a456-426655440000",
      merchantName: "Fulano de Tal",
      merchantCity: "BRASILIA",
      txid: "***",
      crc: "1D3D",
    });
  });

  it("rejects a wrong CRC and a truncated code", () => {
    expect(() => parseBrCode(`${bcbManualExample.slice(0, -4)}1D3E`)).toThrow(/CRC/);
    expect(() => parseBrCode(bcbManualExample.slice(10))).toThrow(SyntaxError);
  });
});

describe("buildDynamicPixBrCode", () => {
  const code = buildDynamicPixBrCode(input);

  it("writes every field of a dynamic code and a valid CRC", () => {
    const parsed = parseBrCode(code);
    expect(parsed).toMatchObject({
      payloadFormatIndicator: "01",
      pointOfInitiationMethod: "12",
      gui: "br.gov.bcb.pix",
      payloadUrl: input.payloadUrl,
      merchantCategoryCode: "0000",
      currency: "986",
      amount: "123.45",
      countryCode: "BR",
      merchantName: "Padaria Sao Joao do Acai",
      merchantCity: "Sao Jose dos Ca",
      txid: input.txid,
    });
    expect(parsed.merchantName.length).toBeLessThanOrEqual(25);
    expect(parsed.merchantCity).toHaveLength(15);
  });

  it("is accepted by an independent parser (pix-utils)", () => {
    const parsed = parsePix(code);
    expect(parsed).toMatchObject({
      type: "DYNAMIC",
      url: input.payloadUrl,
      merchantCity: "Sao Jose dos Ca",
      transactionCurrency: "986",
      countryCode: "BR",
    });
  });

  it("rejects a txid with other characters and non-positive amounts", () => {
    expect(() => buildDynamicPixBrCode({ ...input, txid: "abc-def" })).toThrow(RangeError);
    expect(() => buildDynamicPixBrCode({ ...input, amountCents: 0 })).toThrow(RangeError);
  });
});
