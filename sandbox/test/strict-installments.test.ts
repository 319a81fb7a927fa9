import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPaymentError, fieldsOf, paymentBody } from "./card-fixtures";
import { startSandbox, type TSandbox } from "./harness";

// SANDBOX_STRICT_INSTALLMENTS=1: the usual reading of tipoParcelamento that the spec does not state
// (3 and 7 take exactly one installment, at most 12), for tests that want it. The default sandbox accepts
// every combination the spec allows (payments.test.ts, payment-links.test.ts).

let sandbox: TSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ env: { SANDBOX_STRICT_INSTALLMENTS: "1" } });
});
afterAll(async () => {
  await sandbox?.stop();
});

const pay = (body: unknown, path = "/api/v1/payments") => sandbox.request("merchant", "POST", path, body);
const createLink = (numeroParcelas: number) =>
  sandbox.request("merchant", "POST", "/api/v1/link-payment", {
    nomePagador: "Maria da Silva",
    numeroInscricao: "52998224725",
    valor: 100,
    numeroParcelas,
  });

const refusals = [
  ["3 with 3 installments", { tipoParcelamento: "3", numeroParcelas: 3 }, "tipoParcelamento 3 aceita só 1 parcela"],
  ["7 with 2 installments", { tipoParcelamento: "7", numeroParcelas: 2 }, "tipoParcelamento 7 aceita só 1 parcela"],
  ["4 with 13 installments", { tipoParcelamento: "4", numeroParcelas: 13 }, "máximo 12 parcelas"],
] as const;

describe("strict installments", () => {
  it.each(refusals)("400 VALIDATION_ERROR on create and tokenize payment: %s", async (_label, overrides, erro) => {
    for (const path of ["/api/v1/payments", "/api/v1/payments/tokenize"]) {
      const res = await pay(paymentBody(overrides), path);
      expect(res.status).toBe(400);
      expectPaymentError(res.body, "VALIDATION_ERROR");
      expect(res.body.details).toEqual([{ campo: "numeroParcelas", erro }]);
    }
  });

  it.each(refusals)("400 VALIDATION_ERROR on link confirm, link unchanged: %s", async (_label, overrides, erro) => {
    const link = await createLink(12);
    expect(link.status).toBe(200);
    const uuid = link.body.linkPaymentUuid as string;
    const res = await sandbox.request(
      "merchant",
      "PUT",
      `/api/v1/link-payment/confirm-payment/${uuid}`,
      paymentBody(overrides),
    );
    expect(res.status).toBe(400);
    expectPaymentError(res.body, "VALIDATION_ERROR");
    expect(res.body.details).toEqual([{ campo: "numeroParcelas", erro }]);
    expect((await sandbox.request("merchant", "GET", `/api/v1/link-payment/${uuid}`)).body.status.code).toBe(1);
  });

  it("400 for a link with more than 12 installments", async () => {
    const res = await createLink(13);
    expect(res.status).toBe(400);
    expectPaymentError(res.body, "VALIDATION_ERROR");
    expect(fieldsOf(res.body)).toEqual(["numeroParcelas"]);
  });

  it("still accepts what the strict reading allows", async () => {
    for (const overrides of [
      { tipoParcelamento: "3", numeroParcelas: 1 },
      { tipoParcelamento: "7", numeroParcelas: 1 },
      { tipoParcelamento: "4", numeroParcelas: 12 },
      { tipoParcelamento: "6", numeroParcelas: 2 },
    ]) {
      const res = await pay(paymentBody(overrides));
      expect(res.status).toBe(201);
      expect(res.body.parcelas).toHaveLength(overrides.numeroParcelas);
    }
    expect((await createLink(12)).status).toBe(200);
  });
});
