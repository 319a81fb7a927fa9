import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cards, expectPaymentError, fieldsOf, filesContaining } from "./card-fixtures";
import { startSandbox, type TSandbox } from "./harness";

// Spec 4.2 (card tokens), 3.2 (card token state), 2.5 (shapes) and 7.2, over mTLS.

let sandbox: TSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const createCard = (body: Record<string, unknown>, client = "merchant") =>
  sandbox.request(client, "POST", "/api/v1/cards", { dataExpiracao: "08/31", bandeiraCartao: "1", ...body });

const isoWithOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?-03:00$/;

describe("create card (POST /api/v1/cards)", () => {
  it("answers 200 with the card result; the token starts ATV", async () => {
    const res = await createCard({
      numeroCartao: cards.visa,
      merchantUsn: "123456789012",
      clientId: "customer-42",
      walletTransactionId: "w-1",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      code: "0",
      message: expect.any(String),
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      suffix: "1111",
      bin: "411111",
      statusTransaction: "CON",
      nsua: expect.stringMatching(/^\d{1,15}$/),
      nita: expect.stringMatching(/^\d{1,64}$/),
      merchantUsn: "123456789012",
      clientId: "customer-42",
      bandeiraCartao: "1",
    });
    expect(res.body.code.length).toBeLessThanOrEqual(4);
    expect(res.body.message.length).toBeLessThanOrEqual(500);
    const lookup = await sandbox.request("merchant", "GET", `/api/v1/cards/${res.body.token}`);
    expect(lookup.body.cartoes[0]).toMatchObject({ statusCard: "ATV", customerId: "customer-42" });
    expect(JSON.stringify(res.body)).not.toContain(cards.visa);
  });

  it("409 with the ErrorResponse when the client already registered the same card, even with another expiry", async () => {
    const first = await createCard({ numeroCartao: cards.mastercard, bandeiraCartao: "2" });
    expect(first.status).toBe(200);
    const again = await createCard({ numeroCartao: cards.mastercard, bandeiraCartao: "2", dataExpiracao: "09/33" });
    expect(again.status).toBe(409);
    expectPaymentError(again.body, "CONFLICT");
    // Another client registering the same card is not a duplicate.
    const otherClient = await createCard({ numeroCartao: cards.mastercard, bandeiraCartao: "2" }, "merchant-2");
    expect(otherClient.status).toBe(200);
    expect(otherClient.body.token).not.toBe(first.body.token);
  });

  it("under concurrent registrations of one card exactly one succeeds; the others get 409", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => createCard({ numeroCartao: "6011111111111117", bandeiraCartao: "7" })),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it.each([
    ["numeroCartao missing", { numeroCartao: undefined }, "numeroCartao"],
    ["numeroCartao failing Luhn", { numeroCartao: "4111111111111121" }, "numeroCartao"],
    [
      "dataExpiracao missing",
      { numeroCartao: cards.amex, bandeiraCartao: "3", dataExpiracao: undefined },
      "dataExpiracao",
    ],
    ["dataExpiracao 13/30", { numeroCartao: cards.amex, bandeiraCartao: "3", dataExpiracao: "13/30" }, "dataExpiracao"],
    ["bandeiraCartao missing", { numeroCartao: cards.amex, bandeiraCartao: undefined }, "bandeiraCartao"],
    ["bandeiraCartao of another brand", { numeroCartao: cards.amex, bandeiraCartao: "1" }, "bandeiraCartao"],
    ["bandeiraCartao unknown", { numeroCartao: cards.amex, bandeiraCartao: "99" }, "bandeiraCartao"],
    ["an expired card", { numeroCartao: cards.amex, bandeiraCartao: "3", dataExpiracao: "01/20" }, "dataExpiracao"],
    [
      "merchantUsn over 12 characters",
      { numeroCartao: cards.amex, bandeiraCartao: "3", merchantUsn: "1234567890123" },
      "merchantUsn",
    ],
  ])("400 with the ErrorResponse: %s", async (_label, overrides, campo) => {
    const valid: Record<string, unknown> = { numeroCartao: cards.elo, bandeiraCartao: "4" };
    const res = await createCard({ ...valid, ...overrides });
    expect(res.status).toBe(400);
    expectPaymentError(res.body, "VALIDATION_ERROR");
    expect(fieldsOf(res.body)).toContain(campo);
  });
});

describe("read cards", () => {
  it("reads by token: the lookup wrapper with the Card", async () => {
    const created = await createCard({ numeroCartao: cards.insufficientFunds, merchantUsn: "77" });
    const res = await sandbox.request("merchant", "GET", `/api/v1/cards/${created.body.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      codigoResposta: "0",
      mensagemResposta: expect.any(String),
      cartoes: [
        {
          id: created.body.id,
          statusCard: "ATV",
          bandeiraCartao: "1",
          token: created.body.token,
          bin: "400000",
          suffix: "9995",
          dataExpiracao: "08/31",
          customerId: null,
          dataCriacao: expect.stringMatching(isoWithOffset),
          dataModificacao: expect.stringMatching(isoWithOffset),
        },
      ],
      paginaAtual: "0",
      totalPaginas: "1",
      quantidade: "1",
    });
  });

  it("reads by id: the card result", async () => {
    const created = await createCard({ numeroCartao: cards.expired });
    const res = await sandbox.request("merchant", "GET", `/api/v1/cards/id/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
  });

  it("404 with the ErrorResponse for an unknown token or id", async () => {
    const byToken = await sandbox.request("merchant", "GET", `/api/v1/cards/${"f".repeat(32)}`);
    expect(byToken.status).toBe(404);
    expectPaymentError(byToken.body, "NOT_FOUND");
    const byId = await sandbox.request("merchant", "GET", "/api/v1/cards/id/00000000-0000-4000-8000-000000000000");
    expect(byId.status).toBe(404);
    expectPaymentError(byId.body, "NOT_FOUND");
  });

  it("lists Cards in the page envelope, oldest first, with size and sort", async () => {
    const fresh = await startSandbox();
    try {
      for (const [numeroCartao, bandeiraCartao] of [
        [cards.visa, "1"],
        [cards.mastercard, "2"],
        [cards.elo, "4"],
      ] as const) {
        await fresh.request("merchant", "POST", "/api/v1/cards", {
          numeroCartao,
          bandeiraCartao,
          dataExpiracao: "01/35",
        });
      }
      const page = await fresh.request("merchant", "GET", "/api/v1/cards?size=2");
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({
        number: 0,
        size: 2,
        numberOfElements: 2,
        totalElements: 3,
        totalPages: 2,
        first: true,
        last: false,
        empty: false,
      });
      expect(page.body.content.map((card: { suffix: string }) => card.suffix)).toEqual(["1111", "4444"]);
      expect(Object.keys(page.body.content[0]).sort()).toEqual([
        "bandeiraCartao",
        "bin",
        "customerId",
        "dataCriacao",
        "dataExpiracao",
        "dataModificacao",
        "id",
        "statusCard",
        "suffix",
        "token",
      ]);
      const sorted = await fresh.request("merchant", "GET", "/api/v1/cards?sort=bandeiraCartao,desc");
      expect(sorted.body.content.map((card: { bandeiraCartao: string }) => card.bandeiraCartao)).toEqual([
        "4",
        "2",
        "1",
      ]);
      const empty = await fresh.request("merchant-2", "GET", "/api/v1/cards");
      expect(empty.body).toMatchObject({ content: [], totalElements: 0, empty: true });
      const badSize = await fresh.request("merchant", "GET", "/api/v1/cards?size=0");
      expect(badSize.status).toBe(400);
      expectPaymentError(badSize.body, "VALIDATION_ERROR");
    } finally {
      await fresh.stop();
    }
  });
});

describe("enable and disable (state table 3.2)", () => {
  it("walks ATV → 409 enable, disable → INA, 409 disable, enable → ATV", async () => {
    const created = await createCard({ numeroCartao: "5105105105105100", bandeiraCartao: "2" });
    const token = created.body.token as string;

    const enableActive = await sandbox.request("merchant", "PUT", `/api/v1/cards/${token}/enable`);
    expect(enableActive.status).toBe(409);
    expectPaymentError(enableActive.body, "CONFLICT");

    const disable = await sandbox.request("merchant", "PUT", `/api/v1/cards/${token}/disable`);
    expect(disable.status).toBe(200);
    expect(disable.body).toEqual({
      codigo: "0",
      mensagem: expect.any(String),
      token,
      suffix: "5100",
      bin: "510510",
      statusCartao: "INA",
      nsua: created.body.nsua,
      nita: created.body.nita,
      clientId: created.body.clientId,
      bandeiraCartao: "2",
    });
    const lookup = await sandbox.request("merchant", "GET", `/api/v1/cards/${token}`);
    expect(lookup.body.cartoes[0].statusCard).toBe("INA");

    const disableInactive = await sandbox.request("merchant", "PUT", `/api/v1/cards/${token}/disable`);
    expect(disableInactive.status).toBe(409);
    expectPaymentError(disableInactive.body, "CONFLICT");

    const enable = await sandbox.request("merchant", "PUT", `/api/v1/cards/${token}/enable`);
    expect(enable.status).toBe(200);
    expect(enable.body.statusCartao).toBe("ATV");
  });

  it("404 for an unknown token", async () => {
    for (const action of ["enable", "disable"]) {
      const res = await sandbox.request("merchant", "PUT", `/api/v1/cards/${"a".repeat(32)}/${action}`);
      expect(res.status).toBe(404);
      expectPaymentError(res.body, "NOT_FOUND");
    }
  });
});

describe("isolation between merchants", () => {
  it("merchant-2 gets 404 for merchant's card by token, by id, on enable/disable, and never lists it", async () => {
    const created = await createCard({ numeroCartao: "4012888888881881" });
    const { token, id } = created.body as { token: string; id: string };
    for (const [method, path] of [
      ["GET", `/api/v1/cards/${token}`],
      ["GET", `/api/v1/cards/id/${id}`],
      ["PUT", `/api/v1/cards/${token}/disable`],
      ["PUT", `/api/v1/cards/${token}/enable`],
    ] as const) {
      const res = await sandbox.request("merchant-2", method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expectPaymentError(res.body, "NOT_FOUND");
    }
    expect((await sandbox.request("merchant", "GET", `/api/v1/cards/${token}`)).body.cartoes[0].statusCard).toBe("ATV");
    const list = await sandbox.request("merchant-2", "GET", "/api/v1/cards?size=100");
    expect(list.body.content.map((card: { token: string }) => card.token)).not.toContain(token);
  });
});

describe("card data at rest", () => {
  it("keeps only BIN, last four, brand and expiry: no card number in the data dir or the logs", async () => {
    for (const number of [...Object.values(cards), "5105105105105100", "4012888888881881"]) {
      expect(await filesContaining(sandbox.dataDir, number)).toEqual([]);
      expect(sandbox.output()).not.toContain(number);
    }
  });
});
