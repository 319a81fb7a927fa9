import { describe, expect, it } from "vitest";
import {
  ZCreatePixChargeInput,
  ZPixRefundFilters,
  ZRefreshPixChargesPageInput,
  ZRequestPixRefundInput,
} from "./schemas";

const base = { idempotencyKey: "0b8f7c1e-6d3a-4f5e-9a2b-1c3d5e7f9a0b", amountCents: 2590, expirationSeconds: 3600 };

function fieldErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
}

describe("Pix schemas", () => {
  it("keeps documents as digits and drops blank optional texts", () => {
    expect(
      ZCreatePixChargeInput.parse({
        ...base,
        debtor: { name: " Ana ", document: "11.222.333/0001-81" },
        description: "  ",
        userReference: "",
      }),
    ).toEqual({
      ...base,
      debtor: { name: "Ana", document: "11222333000181" },
      description: undefined,
      userReference: undefined,
    });
  });

  it("reports bad inputs as translation keys of pix.errors", () => {
    expect(fieldErrors(ZCreatePixChargeInput.safeParse({ ...base, amountCents: 0 }))).toEqual({
      amountCents: "amountTooSmall",
    });
    expect(fieldErrors(ZCreatePixChargeInput.safeParse({ ...base, amountCents: 10.5 }))).toEqual({
      amountCents: "invalidAmount",
    });
    expect(
      fieldErrors(ZCreatePixChargeInput.safeParse({ ...base, debtor: { name: "Ana", document: "123.456.789-00" } })),
    ).toEqual({
      "debtor.document": "invalidDocument",
    });
    expect(fieldErrors(ZCreatePixChargeInput.safeParse({ ...base, expirationSeconds: 10 }))).toEqual({
      expirationSeconds: "expirationTooShort",
    });
    expect(
      fieldErrors(
        ZRequestPixRefundInput.safeParse({ idempotencyKey: base.idempotencyKey, txid: "abc", amountCents: -1 }),
      ),
    ).toEqual({
      amountCents: "amountTooSmall",
    });
    expect(
      fieldErrors(
        ZRequestPixRefundInput.safeParse({ idempotencyKey: base.idempotencyKey, txid: "../x", amountCents: 1 }),
      ),
    ).toEqual({
      txid: "invalidTxid",
    });
    expect(
      fieldErrors(ZRefreshPixChargesPageInput.safeParse({ from: "2026-11-21", to: "2026-11-01", page: 0 })),
    ).toEqual({ to: "periodReversed" });
  });

  it("drops a bad list filter on its own", () => {
    expect(ZPixRefundFilters.parse({ statusCode: "3", txid: " abc ", page: "x" })).toMatchObject({
      statusCode: 3,
      txid: "abc",
      page: 1,
    });
    expect(ZPixRefundFilters.parse({ statusCode: "5", from: "yesterday" })).toMatchObject({
      statusCode: undefined,
      from: undefined,
    });
  });
});
