import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cards, expectPaymentError, fieldsOf, paymentBody } from "./card-fixtures";
import { createPaidCharge, expectValidationError } from "./fixtures";
import { startSandbox, type TSandbox } from "./harness";

// The sandbox accepts everything the spec allows, refuses what it forbids (a non-JSON body, a numeric
// tipoParcelamento, fields outside the spec's tables) and says why, naming the field and the real problem.

let sandbox: TSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const linkBody = (overrides: Record<string, unknown> = {}) => ({
  nomePagador: "Maria da Silva",
  numeroInscricao: "52998224725",
  valor: 100,
  ...overrides,
});
const createLink = (body: unknown) => sandbox.request("merchant", "POST", "/api/v1/link-payment", body);
const pay = (body: unknown, path = "/api/v1/payments") => sandbox.request("merchant", "POST", path, body);
const detailOf = (body: { details: { campo: string; erro: string }[] }, campo: string) =>
  body.details.find((detail) => detail.campo === campo)?.erro;

describe("unknown fields are refused by name", () => {
  it("a link created with the response's spelling metodosPagamentoAceitos is a 400 naming it, not a card-only link", async () => {
    const res = await createLink(linkBody({ metodosPagamentoAceitos: [2] }));
    expect(res.status).toBe(400);
    expectPaymentError(res.body, "VALIDATION_ERROR");
    expect(fieldsOf(res.body)).toEqual(["metodosPagamentoAceitos"]);
    expect(res.body.message).toContain("metodosPagamentoAceitos");
    expect(detailOf(res.body, "metodosPagamentoAceitos")).toMatch(/desconhecido/);
    const right = await createLink(linkBody({ metodosPagamentosAceitos: [2] }));
    expect(right.status).toBe(200);
    expect(right.body.metodosPagamentoAceitos).toEqual([{ code: 2, description: "PIX" }]);
  });

  it("refuses unknown fields in payments, cards, Pix charges, refunds and webhooks", async () => {
    const payment = await pay(paymentBody({ parcelas: 2 }));
    expect(payment.status).toBe(400);
    expect(fieldsOf(payment.body)).toEqual(["parcelas"]);
    const card = await sandbox.request("merchant", "POST", "/api/v1/cards", {
      numeroCartao: cards.mastercard,
      dataExpiracao: "12/39",
      bandeiraCartao: "2",
      codigoSeguranca: "123",
    });
    expect(card.status).toBe(400);
    expect(fieldsOf(card.body)).toEqual(["codigoSeguranca"]);
    const charge = await sandbox.request("merchant", "POST", "/api/v1/pix-charges", {
      amount: 10,
      debtor: { name: "Fulano", naturalPersonIdentification: "52998224725", cpf: "52998224725" },
    });
    expectValidationError(charge, "debtor.cpf");
    const paid = await createPaidCharge(sandbox);
    const refund = await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", {
      txid: paid.txid,
      amount: 1,
      valor: 1,
    });
    expectValidationError(refund, "valor");
    expect(refund.body.mensagem).toContain("valor");
    const webhook = await sandbox.request("merchant", "POST", "/api/v1/webhooks", {
      url: "https://example.test/hooks",
      events: ["pix_charge.paid"],
      secret: "mine",
    });
    expectValidationError(webhook, "secret");
  });
});

describe("types the spec fixes", () => {
  it("tipoParcelamento is a string enum: the number 3 is a 400 that says to send text", async () => {
    const res = await pay(paymentBody({ tipoParcelamento: 3 }));
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(["tipoParcelamento"]);
    expect(detailOf(res.body, "tipoParcelamento")).toMatch(/deve ser texto/);
    expect((await pay(paymentBody({ tipoParcelamento: "3" }))).status).toBe(201);
    const unknown = await pay(paymentBody({ tipoParcelamento: "5" }));
    expect(detailOf(unknown.body, "tipoParcelamento")).toMatch(/valores aceitos/);
  });

  it("a body that is not application/json is a 400 naming the Content-Type", async () => {
    const json = JSON.stringify(linkBody());
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await sandbox.request("merchant", "POST", "/api/v1/link-payment", json, {
        "content-type": contentType,
      });
      expect(res.status).toBe(400);
      expectPaymentError(res.body, "VALIDATION_ERROR");
      expect(fieldsOf(res.body)).toEqual(["Content-Type"]);
    }
    const charge = await sandbox.request("merchant", "POST", "/api/v1/pix-charges", '{"amount": 10}', {
      "content-type": "text/plain",
    });
    expectValidationError(charge, "Content-Type");
    const withCharset = await sandbox.request("merchant", "POST", "/api/v1/link-payment", json, {
      "content-type": "application/json; charset=utf-8",
    });
    expect(withCharset.status).toBe(200);
  });

  it("messages name the real problem: missing, wrong type, empty", async () => {
    const missing = await createLink({ numeroInscricao: "52998224725", valor: 1 });
    expect(detailOf(missing.body, "nomePagador")).toBe("obrigatório");
    const wrongType = await createLink(linkBody({ nomePagador: 123 }));
    expect(detailOf(wrongType.body, "nomePagador")).toBe("deve ser texto");
    const empty = await createLink(linkBody({ nomePagador: "  " }));
    expect(detailOf(empty.body, "nomePagador")).toBe("não pode ser vazio");
    const fraction = await createLink(linkBody({ numeroParcelas: 1.5 }));
    expect(detailOf(fraction.body, "numeroParcelas")).toMatch(/inteiro/);
  });
});

describe("no limit the spec does not have", () => {
  const long = (length: number) => "x".repeat(length);

  it("takes link texts of any length (nomePagador, descricao, userReference, a foreign document)", async () => {
    const res = await createLink(
      linkBody({
        nomePagador: long(300),
        descricao: long(2_000),
        userReference: long(500),
        isEstrangeiro: true,
        numeroInscricao: long(60),
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.descricao).toHaveLength(2_000);
  });

  it("takes a refund's userReference of any length; a description over the Pix 140 says too long", async () => {
    const charge = await createPaidCharge(sandbox);
    const res = await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", {
      txid: charge.txid,
      amount: 1,
      userReference: long(300),
      description: long(140),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.userReference).toHaveLength(300);
    const tooLong = await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", {
      txid: charge.txid,
      amount: 1,
      description: long(141),
    });
    expectValidationError(tooLong, "description");
    expect(detailOf(tooLong.body, "description")).toBe("muito longo: máximo de 140 caracteres");
  });

  it("takes a long identificacaoPagamento", async () => {
    const res = await pay(paymentBody({ identificacaoPagamento: long(200) }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("takes 99 installments; 100 is a 400 that gives the reason", async () => {
    expect((await pay(paymentBody({ numeroParcelas: 99, tipoParcelamento: "4" }))).status).toBe(201);
    const res = await pay(paymentBody({ numeroParcelas: 100, tipoParcelamento: "4" }));
    expect(res.status).toBe(400);
    expect(detailOf(res.body, "numeroParcelas")).toMatch(/^máximo 99 parcelas \(/);
  });

  it("tokenizes while paying by token (the same token back) or without an expiry", async () => {
    const noExpiry = await pay(
      paymentBody({ numeroCartao: cards.mastercard, bandeiraCartao: "2", dataExpiracao: undefined }),
      "/api/v1/payments/tokenize",
    );
    expect(noExpiry.status, JSON.stringify(noExpiry.body)).toBe(201);
    expect(noExpiry.body).toMatchObject({ codigo: "0", token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const stored = await sandbox.request("merchant", "GET", `/api/v1/cards/${noExpiry.body.token}`);
    expect(stored.body.cartoes[0]).toMatchObject({ token: noExpiry.body.token, dataExpiracao: null });
    const byToken = await pay(
      paymentBody({
        numeroCartao: undefined,
        dataExpiracao: undefined,
        bandeiraCartao: "2",
        token: noExpiry.body.token,
      }),
      "/api/v1/payments/tokenize",
    );
    expect(byToken.status, JSON.stringify(byToken.body)).toBe(201);
    expect(byToken.body).toMatchObject({ codigo: "0", token: noExpiry.body.token });
  });
});

describe("the link verification code is any integer (2.6 tokenVerificacao)", () => {
  const setCode = (uuid: string, tokenVerificacao: unknown) =>
    sandbox.request("merchant", "POST", `/sandbox/v1/payment-links/${uuid}/verification-code`, { tokenVerificacao });
  const check = (uuid: string, code: string) =>
    sandbox.request("merchant", "GET", `/api/v1/link-payment/check/${uuid}/${code}`);

  it.each([42, 1_234_567_890, 9_007_199_254_740_991])("verifies %i", async (code) => {
    const { linkPaymentUuid } = (await createLink(linkBody())).body;
    const set = await setCode(linkPaymentUuid, code);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.tokenVerificacao).toBe(code);
    expect((await check(linkPaymentUuid, String(code))).status).toBe(200);
    expect((await check(linkPaymentUuid, String(code + 1))).status).toBe(400);
  });

  it("compares as an integer, and says when the code is not one", async () => {
    const { linkPaymentUuid } = (await createLink(linkBody())).body;
    await setCode(linkPaymentUuid, 42);
    expect((await check(linkPaymentUuid, "0042")).status).toBe(200);
    const notInteger = await check(linkPaymentUuid, "4a2");
    expect(notInteger.status).toBe(400);
    expect(detailOf(notInteger.body, "verificationCode")).toBe("deve ser um número inteiro");
    const wrong = await check(linkPaymentUuid, "43");
    expect(detailOf(wrong.body, "verificationCode")).toBe("código de verificação inválido");
    expect((await setCode(linkPaymentUuid, 4.2)).status).toBe(400);
  });
});
