import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cards, expectPaymentError, fieldsOf, filesContaining, paymentBody } from "./card-fixtures";
import { startSandbox, type TSandbox } from "./harness";

// Spec 4.1 (card payments), 3.1 (transaction status) and 7.2 (ErrorResponse), over mTLS.

let sandbox: TSandbox;
const pay = (body: unknown, client = "merchant", path = "/api/v1/payments") =>
  sandbox.request(client, "POST", path, body);

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const monthsApart = (from: string, to: string) => {
  const [fy, fm] = from.split("-").map(Number);
  const [ty, tm] = to.split("-").map(Number);
  return (ty! - fy!) * 12 + (tm! - fm!);
};

describe("create payment (POST /api/v1/payments)", () => {
  it("authorizes the Visa test card: 201, CON, every 2.2 field, installments adding up to valor", async () => {
    const body = paymentBody({ valor: 100, numeroParcelas: 3, tipoParcelamento: "4" });
    const res = await pay(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      codigo: "0",
      mensagem: "Transacao autorizada",
      codigoAutorizacao: expect.any(String),
      mensagemAutorizador: expect.any(String),
      status: "CON",
      identicadorPagamentoAdquirente: expect.stringMatching(/^\d+$/),
      identificadorPagamento: body.identificacaoPagamento,
      cupomCliente: expect.stringContaining("1111"),
      cupomEstabelecimento: expect.any(String),
      merchantAdviceCode: null,
      bandeiraCartao: "1",
      codigoAdquirente: expect.any(String),
      nomeAdquirente: expect.any(String),
      dataAutorizacao: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}T\d{2}:\d{2}$/),
      numeroAutorizacao: expect.stringMatching(/^\d{6}$/),
      merchantUsn: expect.stringMatching(/^\d+$/),
      ecommerceGatewayUsn: expect.stringMatching(/^\d+$/),
      gatewayUsn: expect.stringMatching(/^\d+$/),
      hostUsn: expect.stringMatching(/^\d+$/),
      valor: 100,
      tipoPagamento: "C",
      emissor: "VISA",
      authorizerMerchantId: expect.stringMatching(/^\d{10}$/),
      terminalId: expect.any(String),
      dataPagamento: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}T\d{2}:\d{2}$/),
      parcelas: expect.any(Array),
    });
    const parcelas = res.body.parcelas as {
      id: string;
      transacaoCartaoId: string;
      numeroParcela: number;
      valorParcela: number;
      dataVencimento: string;
    }[];
    expect(parcelas.map((p) => [p.numeroParcela, p.valorParcela])).toEqual([
      [1, 33.34],
      [2, 33.33],
      [3, 33.33],
    ]);
    expect(parcelas.every((p) => p.transacaoCartaoId === res.body.id && /^[0-9a-f-]{36}$/.test(p.id))).toBe(true);
    expect(parcelas.map((p) => p.dataVencimento).every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
    expect(monthsApart(parcelas[0]!.dataVencimento, parcelas[1]!.dataVencimento)).toBe(1);
    expect(monthsApart(parcelas[1]!.dataVencimento, parcelas[2]!.dataVencimento)).toBe(1);
    expect(JSON.stringify(res.body)).not.toContain(cards.visa);
  });

  it("keeps installment sums exact for awkward amounts", async () => {
    const res = await pay(paymentBody({ valor: 1000.01, numeroParcelas: 12, tipoParcelamento: "6" }));
    expect(res.status).toBe(201);
    const cents = (res.body.parcelas as { valorParcela: number }[]).map((p) => Math.round(p.valorParcela * 100));
    expect(cents).toHaveLength(12);
    expect(cents.reduce((a, b) => a + b, 0)).toBe(100_001);
  });

  it("authorizes the Mastercard test card and other valid cards of known brands", async () => {
    for (const [numeroCartao, bandeiraCartao] of [
      [cards.mastercard, "2"],
      [cards.amex, "3"],
      [cards.elo, "4"],
    ] as const) {
      const res = await pay(paymentBody({ numeroCartao, bandeiraCartao }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ codigo: "0", mensagem: "Transacao autorizada", status: "CON", bandeiraCartao });
    }
  });

  it("uses tipoParcelamento 7 as debit (tipoPagamento D)", async () => {
    const res = await pay(paymentBody({ tipoParcelamento: "7" }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "CON", tipoPagamento: "D" });
    expect(res.body.parcelas).toHaveLength(1);
  });

  // The spec allows every tipoParcelamento with any numeroParcelas >= 1; the sandbox adds no rule of its own
  // (SANDBOX_STRICT_INSTALLMENTS=1 does, see strict-installments.test.ts).
  it("accepts tipoParcelamento 3 with 3 installments: credit, 3 parcelas adding up to valor", async () => {
    const res = await pay(paymentBody({ valor: 100, tipoParcelamento: "3", numeroParcelas: 3 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "CON", tipoPagamento: "C" });
    const parcelas = res.body.parcelas as { numeroParcela: number; valorParcela: number }[];
    expect(parcelas.map((p) => [p.numeroParcela, p.valorParcela])).toEqual([
      [1, 33.34],
      [2, 33.33],
      [3, 33.33],
    ]);
    expect(res.body.cupomCliente).toContain("CREDITO 3X");
    expect(res.body.cupomCliente).not.toContain("A VISTA");
  });

  it("accepts debit (7) with 2 installments: tipoPagamento D, 2 parcelas", async () => {
    const res = await pay(paymentBody({ valor: 10.01, tipoParcelamento: "7", numeroParcelas: 2 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "CON", tipoPagamento: "D" });
    expect((res.body.parcelas as { valorParcela: number }[]).map((p) => p.valorParcela)).toEqual([5.01, 5]);
    expect(res.body.cupomCliente).toContain("DEBITO 2X");
  });

  it("accepts more than 12 installments, up to the safety cap of 99", async () => {
    for (const numeroParcelas of [13, 99]) {
      const res = await pay(paymentBody({ valor: 100, tipoParcelamento: "6", numeroParcelas }));
      expect(res.status).toBe(201);
      expect(res.body.parcelas).toHaveLength(numeroParcelas);
    }
  });

  it.each([
    [cards.refused, "05", "03"],
    [cards.insufficientFunds, "51", "02"],
    [cards.expired, "54", "01"],
  ])(
    "refuses test card %s with codigo %s and merchantAdviceCode %s (201, NEG, no installments)",
    async (numeroCartao, codigo, advice) => {
      const res = await pay(paymentBody({ numeroCartao }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        codigo,
        status: "NEG",
        merchantAdviceCode: advice,
        numeroAutorizacao: null,
        dataPagamento: null,
        parcelas: [],
      });
      expect(res.body.mensagem).not.toBe("Transacao autorizada");
      expect(res.body.mensagem).not.toBe("");
    },
  );

  it("answers codigo 0 with another mensagem for 4000000000000077: a refusal by 7.4 in an approval's shape", async () => {
    const res = await pay(paymentBody({ numeroCartao: "4000000000000077" }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      codigo: "0",
      mensagem: "Transacao pendente de confirmacao",
      status: "CON",
      merchantAdviceCode: null,
    });
    expect(res.body.numeroAutorizacao).toMatch(/^\d{6}$/);
  });

  it("refuses an authorized card whose expiry month has passed (codigo 54)", async () => {
    const res = await pay(paymentBody({ dataExpiracao: "01/20" }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ codigo: "54", status: "NEG", merchantAdviceCode: "01" });
  });

  it("answers 500 with the ErrorResponse for the authorizer-failure test card, storing nothing", async () => {
    const before = await sandbox.request("merchant", "GET", "/api/v1/payments?size=100");
    const res = await pay(paymentBody({ numeroCartao: cards.authorizerError }));
    expect(res.status).toBe(500);
    expectPaymentError(res.body, "AUTHORIZER_ERROR");
    const after = await sandbox.request("merchant", "GET", "/api/v1/payments?size=100");
    expect(after.body.totalElements).toBe(before.body.totalElements);
  });

  it.each([
    ["identificacaoPagamento missing", { identificacaoPagamento: undefined }, "identificacaoPagamento"],
    ["numeroParcelas missing", { numeroParcelas: undefined }, "numeroParcelas"],
    ["numeroParcelas 0", { numeroParcelas: 0 }, "numeroParcelas"],
    ["numeroParcelas 1.5", { numeroParcelas: 1.5, tipoParcelamento: "4" }, "numeroParcelas"],
    ["tipoParcelamento missing", { tipoParcelamento: undefined }, "tipoParcelamento"],
    ["tipoParcelamento 5", { tipoParcelamento: "5" }, "tipoParcelamento"],
    ["numeroParcelas above the safety cap", { numeroParcelas: 100, tipoParcelamento: "4" }, "numeroParcelas"],
    ["bandeiraCartao missing", { bandeiraCartao: undefined }, "bandeiraCartao"],
    ["bandeiraCartao unknown", { bandeiraCartao: "99" }, "bandeiraCartao"],
    ["bandeiraCartao of another brand", { bandeiraCartao: "2" }, "bandeiraCartao"],
    ["valor missing", { valor: undefined }, "valor"],
    ["valor 0", { valor: 0 }, "valor"],
    ["valor as text", { valor: "10.00" }, "valor"],
    ["valor with 3 decimals", { valor: 10.001 }, "valor"],
    ["card failing Luhn", { numeroCartao: "4111111111111112" }, "numeroCartao"],
    ["card with separators", { numeroCartao: "4111 1111 1111 1111" }, "numeroCartao"],
    ["dataExpiracao MM/YYYY", { dataExpiracao: "12/2039" }, "dataExpiracao"],
    ["codigoSeguranca with letters", { codigoSeguranca: "12a" }, "codigoSeguranca"],
    ["neither numeroCartao nor token", { numeroCartao: undefined }, "numeroCartao"],
    ["both numeroCartao and token", { token: "abc" }, "token"],
  ])("400 with the ErrorResponse: %s", async (_label, overrides, campo) => {
    const res = await pay(paymentBody(overrides));
    expect(res.status).toBe(400);
    expectPaymentError(res.body, "VALIDATION_ERROR");
    expect(fieldsOf(res.body)).toContain(campo);
    expect(JSON.stringify(res.body)).not.toContain("4111111111111112");
  });

  it("400 for a body that is not JSON, and for no body", async () => {
    const bad = await sandbox.request("merchant", "POST", "/api/v1/payments", "{not json");
    expect(bad.status).toBe(400);
    expectPaymentError(bad.body, "VALIDATION_ERROR");
    const empty = await sandbox.request("merchant", "POST", "/api/v1/payments");
    expect(empty.status).toBe(400);
    expectPaymentError(empty.body, "VALIDATION_ERROR");
  });

  it("returns x-transaction-id as the ErrorResponse traceId", async () => {
    const traceId = "6f1c2c36-3a0e-4b6f-9a57-0d2a4f5e7a11";
    const res = await sandbox.request("merchant", "POST", "/api/v1/payments", paymentBody({ valor: -1 }), {
      "x-transaction-id": traceId,
    });
    expect(res.status).toBe(400);
    expect(res.body.traceId).toBe(traceId);
  });
});

describe("read and list payments", () => {
  it("reads a payment by id (200) and answers 404 with the ErrorResponse for an unknown id", async () => {
    const created = await pay(paymentBody());
    const read = await sandbox.request("merchant", "GET", `/api/v1/payments/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const missing = await sandbox.request("merchant", "GET", "/api/v1/payments/00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    expectPaymentError(missing.body, "NOT_FOUND");
  });

  it("lists in the page envelope, oldest first, with page, size and sort", async () => {
    const fresh = await startSandbox();
    try {
      const ids: string[] = [];
      for (const valor of [30, 10, 20])
        ids.push((await fresh.request("merchant", "POST", "/api/v1/payments", paymentBody({ valor }))).body.id);
      const first = await fresh.request("merchant", "GET", "/api/v1/payments?page=0&size=2");
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        content: expect.any(Array),
        number: 0,
        size: 2,
        numberOfElements: 2,
        totalElements: 3,
        totalPages: 2,
        first: true,
        last: false,
        empty: false,
      });
      expect(first.body.content.map((p: { id: string }) => p.id)).toEqual([ids[0], ids[1]]);
      const second = await fresh.request("merchant", "GET", "/api/v1/payments?page=1&size=2");
      expect(second.body).toMatchObject({ number: 1, numberOfElements: 1, first: false, last: true, empty: false });
      const beyond = await fresh.request("merchant", "GET", "/api/v1/payments?page=5&size=2");
      expect(beyond.body).toMatchObject({ content: [], numberOfElements: 0, empty: true });
      const sorted = await fresh.request("merchant", "GET", "/api/v1/payments?sort=valor,asc");
      expect(sorted.body.content.map((p: { valor: number }) => p.valor)).toEqual([10, 20, 30]);
      const multi = await fresh.request("merchant", "GET", "/api/v1/payments?sort=status,asc&sort=valor,desc");
      expect(multi.body.content.map((p: { valor: number }) => p.valor)).toEqual([30, 20, 10]);
    } finally {
      await fresh.stop();
    }
  });

  it.each(["size=0", "page=-1", "size=abc", "sort=nope,asc", "sort=valor,up"])(
    "400 for invalid paging (%s)",
    async (query) => {
      const res = await sandbox.request("merchant", "GET", `/api/v1/payments?${query}`);
      expect(res.status).toBe(400);
      expectPaymentError(res.body, "VALIDATION_ERROR");
    },
  );
});

describe("cancel payment (PUT /api/v1/payments/{paymentId}/cancel)", () => {
  it("moves CON to CAN and answers the 2.4 result, with valor in cents as a string", async () => {
    const created = await pay(paymentBody({ valor: 123.45, numeroParcelas: 2, tipoParcelamento: "4" }));
    const res = await sandbox.request("merchant", "PUT", `/api/v1/payments/${created.body.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      codigo: "0",
      mensagem: expect.any(String),
      status: "CAN",
      identicadorPagamentoAdquirente: expect.stringMatching(/^\d+$/),
      identificadorPagamento: created.body.identificadorPagamento,
      cupomCliente: expect.any(String),
      cupomEstabelecimento: expect.any(String),
      bandeiraCartao: "1",
      codigoAdquirente: created.body.codigoAdquirente,
      nomeAdquirente: created.body.nomeAdquirente,
      dataAutorizacao: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}T\d{2}:\d{2}$/),
      numeroAutorizacao: expect.stringMatching(/^\d{6}$/),
      merchantUsn: created.body.merchantUsn,
      ecommerceGatewayUsn: expect.stringMatching(/^\d+$/),
      hostUsn: expect.stringMatching(/^\d+$/),
      valor: "12345",
      tipoPagamento: "C",
      ecommerceGatewayDate: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}T\d{2}:\d{2}$/),
      isHostCancel: "false",
    });
    const read = await sandbox.request("merchant", "GET", `/api/v1/payments/${created.body.id}`);
    expect(read.body.status).toBe("CAN");
  });

  it("409 when already cancelled, 409 for a refused payment, 404 for an unknown one", async () => {
    const created = await pay(paymentBody());
    await sandbox.request("merchant", "PUT", `/api/v1/payments/${created.body.id}/cancel`);
    const again = await sandbox.request("merchant", "PUT", `/api/v1/payments/${created.body.id}/cancel`);
    expect(again.status).toBe(409);
    expectPaymentError(again.body, "CONFLICT");
    expect((await sandbox.request("merchant", "GET", `/api/v1/payments/${created.body.id}`)).body.status).toBe("CAN");

    const refused = await pay(paymentBody({ numeroCartao: cards.refused }));
    const cancelRefused = await sandbox.request("merchant", "PUT", `/api/v1/payments/${refused.body.id}/cancel`);
    expect(cancelRefused.status).toBe(409);
    expectPaymentError(cancelRefused.body, "CONFLICT");

    const missing = await sandbox.request(
      "merchant",
      "PUT",
      "/api/v1/payments/00000000-0000-4000-8000-000000000000/cancel",
    );
    expect(missing.status).toBe(404);
    expectPaymentError(missing.body, "NOT_FOUND");
  });
});

describe("tokenize while paying and paying by token", () => {
  it("tokenizes on authorization, returns the token, and reuses it for the same card", async () => {
    const first = await pay(
      paymentBody({ numeroCartao: cards.mastercard, bandeiraCartao: "2" }),
      "merchant",
      "/api/v1/payments/tokenize",
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ codigo: "0", status: "CON", token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const lookup = await sandbox.request("merchant", "GET", `/api/v1/cards/${first.body.token}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.cartoes[0]).toMatchObject({
      statusCard: "ATV",
      bin: "555555",
      suffix: "4444",
      bandeiraCartao: "2",
      dataExpiracao: "12/39",
    });
    const second = await pay(
      paymentBody({ numeroCartao: cards.mastercard, bandeiraCartao: "2" }),
      "merchant",
      "/api/v1/payments/tokenize",
    );
    expect(second.body.token).toBe(first.body.token);
  });

  it("does not tokenize a refused card", async () => {
    const res = await pay(
      paymentBody({ numeroCartao: cards.insufficientFunds }),
      "merchant",
      "/api/v1/payments/tokenize",
    );
    expect(res.status).toBe(201);
    expect(res.body.codigo).toBe("51");
    expect(res.body.token).toBeUndefined();
  });

  it("400 when tokenizing by a token the client does not have (by token or without expiry is allowed: 2.1)", async () => {
    const byToken = await pay(
      paymentBody({ numeroCartao: undefined, token: "whatever" }),
      "merchant",
      "/api/v1/payments/tokenize",
    );
    expect(byToken.status).toBe(400);
    expect(fieldsOf(byToken.body)).toContain("token");
  });

  it("pays by token with the card's stored outcome; 400 for an unknown or disabled token", async () => {
    const card = await sandbox.request("merchant", "POST", "/api/v1/cards", {
      numeroCartao: cards.refused,
      dataExpiracao: "11/38",
      bandeiraCartao: "1",
    });
    const refused = await pay(
      paymentBody({
        numeroCartao: undefined,
        dataExpiracao: undefined,
        codigoSeguranca: undefined,
        token: card.body.token,
      }),
    );
    expect(refused.status).toBe(201);
    expect(refused.body).toMatchObject({ codigo: "05", status: "NEG", token: card.body.token });

    const tokenized = await pay(paymentBody(), "merchant", "/api/v1/payments/tokenize");
    const byToken = await pay(
      paymentBody({ numeroCartao: undefined, token: tokenized.body.token, numeroParcelas: 2, tipoParcelamento: "4" }),
    );
    expect(byToken.status).toBe(201);
    expect(byToken.body).toMatchObject({ codigo: "0", status: "CON", token: tokenized.body.token });
    expect(byToken.body.parcelas).toHaveLength(2);

    const wrongBrand = await pay(
      paymentBody({ numeroCartao: undefined, token: tokenized.body.token, bandeiraCartao: "2" }),
    );
    expect(wrongBrand.status).toBe(400);
    expect(fieldsOf(wrongBrand.body)).toContain("bandeiraCartao");

    const unknown = await pay(paymentBody({ numeroCartao: undefined, token: "0".repeat(32) }));
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body)).toContain("token");

    await sandbox.request("merchant", "PUT", `/api/v1/cards/${tokenized.body.token}/disable`);
    const disabled = await pay(paymentBody({ numeroCartao: undefined, token: tokenized.body.token }));
    expect(disabled.status).toBe(400);
    expect(fieldsOf(disabled.body)).toContain("token");
    await sandbox.request("merchant", "PUT", `/api/v1/cards/${tokenized.body.token}/enable`);
  });
});

describe("isolation between merchants", () => {
  it("merchant-2 gets 404 for merchant's payment, cannot cancel it, never lists it, cannot use its token", async () => {
    const created = await pay(paymentBody());
    const tokenized = await pay(
      paymentBody({ numeroCartao: cards.elo, bandeiraCartao: "4" }),
      "merchant",
      "/api/v1/payments/tokenize",
    );

    const read = await sandbox.request("merchant-2", "GET", `/api/v1/payments/${created.body.id}`);
    expect(read.status).toBe(404);
    expectPaymentError(read.body, "NOT_FOUND");
    const cancel = await sandbox.request("merchant-2", "PUT", `/api/v1/payments/${created.body.id}/cancel`);
    expect(cancel.status).toBe(404);
    expect((await sandbox.request("merchant", "GET", `/api/v1/payments/${created.body.id}`)).body.status).toBe("CON");

    const list = await sandbox.request("merchant-2", "GET", "/api/v1/payments?size=100");
    expect(list.status).toBe(200);
    expect(list.body.content.map((p: { id: string }) => p.id)).not.toContain(created.body.id);

    const foreignToken = await pay(
      paymentBody({ numeroCartao: undefined, token: tokenized.body.token, bandeiraCartao: "4" }),
      "merchant-2",
    );
    expect(foreignToken.status).toBe(400);
  });
});

describe("durability", () => {
  it("a payment answered 201 survives a kill -9, and its cancellation too", async () => {
    const created = await pay(paymentBody());
    await sandbox.kill();
    await sandbox.restart();
    expect((await sandbox.request("merchant", "GET", `/api/v1/payments/${created.body.id}`)).body).toEqual(
      created.body,
    );
    expect((await sandbox.request("merchant", "PUT", `/api/v1/payments/${created.body.id}/cancel`)).status).toBe(200);
    await sandbox.kill();
    await sandbox.restart();
    expect((await sandbox.request("merchant", "GET", `/api/v1/payments/${created.body.id}`)).body.status).toBe("CAN");
  });
});

describe("card data at rest", () => {
  it("never writes a card number or security code to the data dir or the logs", async () => {
    await pay(paymentBody({ codigoSeguranca: "9876" }));
    for (const number of Object.values(cards)) {
      expect(await filesContaining(sandbox.dataDir, number)).toEqual([]);
      expect(sandbox.output()).not.toContain(number);
    }
    // A 4-digit code could appear by chance among random identifiers, so check the field is never stored.
    expect(await filesContaining(sandbox.dataDir, "codigoSeguranca")).toEqual([]);
  });
});
