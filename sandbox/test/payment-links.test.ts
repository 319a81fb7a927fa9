import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cards, expectPaymentError, fieldsOf, filesContaining, paymentBody } from "./card-fixtures";
import { hmacHex } from "./fixtures";
import { startSandbox, startWebhookReceiver, type TSandbox } from "./harness";

// Spec 4.3 (payment links), 3.3 (link status), 2.6 (shape), event link_payment.paid, and the control
// route POST /sandbox/v1/payment-links/{uuid}/expire, over mTLS.

const linkBaseUrl = "https://pay.example.test/l/";
let sandbox: TSandbox;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let webhookSecret: string;

beforeAll(async () => {
  sandbox = await startSandbox({ env: { SANDBOX_LINK_BASE_URL: linkBaseUrl } });
  receiver = await startWebhookReceiver();
  const webhook = await sandbox.request("merchant", "POST", "/api/v1/webhooks", {
    url: receiver.url,
    events: ["link_payment.paid"],
  });
  expect(webhook.status).toBe(201);
  webhookSecret = webhook.body.secret;
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
});

const validCpf = "529.982.247-25";
const linkBody = (overrides: Record<string, unknown> = {}) => ({
  nomePagador: "Maria da Silva",
  numeroInscricao: validCpf,
  valor: 100,
  numeroParcelas: 3,
  descricao: "Pedido 42",
  userReference: "ref-42",
  metodosPagamentosAceitos: [1, 2],
  diasExpiracao: 5,
  ...overrides,
});
const createLink = (overrides: Record<string, unknown> = {}, client = "merchant") =>
  sandbox.request(client, "POST", "/api/v1/link-payment", linkBody(overrides));
const confirm = (uuid: string, body: unknown, client = "merchant") =>
  sandbox.request(client, "PUT", `/api/v1/link-payment/confirm-payment/${uuid}`, body);
const linkPayment = (overrides: Record<string, unknown> = {}) => paymentBody({ valor: 100, ...overrides });

// Wide enough to hold every link of this run; the sandbox reads zone-less date-times as Brasília time.
const wholeRun = "startDate=2000-01-01T00:00:00&endDate=2100-01-01T00:00:00";

describe("create link (POST /api/v1/link-payment)", () => {
  it("answers 200 with the 2.6 link: status 1 CREATED, payment fields null, accepted methods renamed", async () => {
    const res = await createLink();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      linkPaymentId: expect.any(Number),
      linkPaymentUuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clienteId: expect.any(Number),
      nomePagador: "Maria da Silva",
      numeroInscricao: "52998224725",
      isEstrangeiro: false,
      valor: 100,
      numeroParcelas: 3,
      status: { code: 1, description: "CREATED" },
      urlPagamento: `${linkBaseUrl}${res.body.linkPaymentUuid}`,
      descricao: "Pedido 42",
      tokenVerificacao: expect.any(Number),
      opcoesParcelamento: [
        { numberInstallments: 1, amountInstallment: 100 },
        { numberInstallments: 2, amountInstallment: 50 },
        { numberInstallments: 3, amountInstallment: 33.34 },
      ],
      userReference: "ref-42",
      comprovantePagamento: null,
      identificadorTransacao: null,
      metodoPagamento: null,
      dataCriacao: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?-03:00$/),
      metodosPagamentoAceitos: [
        { code: 1, description: "CREDIT_CARD" },
        { code: 2, description: "PIX" },
      ],
      diasExpiracao: 5,
    });
    expect(Number.isInteger(res.body.tokenVerificacao)).toBe(true);
    expect(String(res.body.tokenVerificacao)).toMatch(/^\d{6}$/);
    expect(Number.isInteger(res.body.linkPaymentId)).toBe(true);
  });

  it("applies the documented defaults: 1 installment, card only, 7 days, null optionals", async () => {
    const res = await sandbox.request("merchant", "POST", "/api/v1/link-payment", {
      nomePagador: "Empresa X",
      numeroInscricao: "11.222.333/0001-81",
      valor: 10.5,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      numeroInscricao: "11222333000181",
      numeroParcelas: 1,
      diasExpiracao: 7,
      descricao: null,
      userReference: null,
      opcoesParcelamento: [{ numberInstallments: 1, amountInstallment: 10.5 }],
      metodosPagamentoAceitos: [{ code: 1, description: "CREDIT_CARD" }],
    });
  });

  it("does not validate a foreign payer's document", async () => {
    const res = await createLink({ isEstrangeiro: true, numeroInscricao: "P1234567" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isEstrangeiro: true, numeroInscricao: "P1234567" });
  });

  it("makes every installment option add up exactly: the first installment carries the leftover cents", async () => {
    const res = await createLink({ valor: 1000.01, numeroParcelas: 12 });
    for (const option of res.body.opcoesParcelamento as { numberInstallments: number; amountInstallment: number }[]) {
      const cents = Math.round(option.amountInstallment * 100);
      const rest = Math.floor(100_001 / option.numberInstallments);
      expect(cents + rest * (option.numberInstallments - 1)).toBe(100_001);
    }
  });

  it.each([
    ["nomePagador missing", { nomePagador: undefined }, "nomePagador"],
    ["numeroInscricao missing", { numeroInscricao: undefined }, "numeroInscricao"],
    ["CPF with a wrong check digit", { numeroInscricao: "529.982.247-26" }, "numeroInscricao"],
    ["CNPJ with a wrong check digit", { numeroInscricao: "11222333000182" }, "numeroInscricao"],
    ["valor missing", { valor: undefined }, "valor"],
    ["valor 0", { valor: 0 }, "valor"],
    ["valor with 3 decimals", { valor: 1.005 }, "valor"],
    ["numeroParcelas 0", { numeroParcelas: 0 }, "numeroParcelas"],
    ["numeroParcelas above the safety cap", { numeroParcelas: 100 }, "numeroParcelas"],
    ["metodosPagamentosAceitos [3]", { metodosPagamentosAceitos: [3] }, "metodosPagamentosAceitos.0"],
    ["metodosPagamentosAceitos empty", { metodosPagamentosAceitos: [] }, "metodosPagamentosAceitos"],
    ["diasExpiracao 0", { diasExpiracao: 0 }, "diasExpiracao"],
    ["isEstrangeiro as text", { isEstrangeiro: "yes" }, "isEstrangeiro"],
  ])("400 with the ErrorResponse: %s", async (_label, overrides, campo) => {
    const res = await createLink(overrides);
    expect(res.status).toBe(400);
    expectPaymentError(res.body, "VALIDATION_ERROR");
    expect(fieldsOf(res.body)).toContain(campo);
  });
});

describe("read and verify", () => {
  it("reads a link (200) and answers 404 for an unknown uuid", async () => {
    const created = await createLink();
    const read = await sandbox.request("merchant", "GET", `/api/v1/link-payment/${created.body.linkPaymentUuid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const missing = await sandbox.request(
      "merchant",
      "GET",
      "/api/v1/link-payment/00000000-0000-4000-8000-000000000000",
    );
    expect(missing.status).toBe(404);
    expectPaymentError(missing.body, "NOT_FOUND");
  });

  it("verifies with tokenVerificacao (200), 400 for a wrong or malformed code, 404 for an unknown link", async () => {
    const created = await createLink();
    const { linkPaymentUuid: uuid, tokenVerificacao: code } = created.body as {
      linkPaymentUuid: string;
      tokenVerificacao: number;
    };
    const ok = await sandbox.request("merchant", "GET", `/api/v1/link-payment/check/${uuid}/${code}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual(created.body);
    const wrongCode = code === 999_999 ? 100_000 : code + 1;
    for (const bad of [String(wrongCode), "abc", "0"]) {
      const res = await sandbox.request("merchant", "GET", `/api/v1/link-payment/check/${uuid}/${bad}`);
      expect(res.status).toBe(400);
      expectPaymentError(res.body, "VALIDATION_ERROR");
    }
    const missing = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/link-payment/check/00000000-0000-4000-8000-000000000000/${code}`,
    );
    expect(missing.status).toBe(404);
  });
});

describe("confirm payment (PUT /api/v1/link-payment/confirm-payment/{uuid})", () => {
  it("answers 200 with the paid link (3 PAID, receipt, transaction id, method) and queues link_payment.paid with the link", async () => {
    const created = await createLink({ userReference: "paid-1" });
    const uuid = created.body.linkPaymentUuid as string;
    const res = await confirm(uuid, linkPayment({ numeroParcelas: 3, tipoParcelamento: "4" }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...created.body,
      status: { code: 3, description: "PAID" },
      comprovantePagamento: expect.stringMatching(/^\d+$/),
      identificadorTransacao: expect.stringMatching(/^[0-9a-f-]{36}$/),
      metodoPagamento: { code: 1, description: "CREDIT_CARD" },
    });

    const payment = await sandbox.request("merchant", "GET", `/api/v1/payments/${res.body.identificadorTransacao}`);
    expect(payment.status).toBe(200);
    expect(payment.body).toMatchObject({
      status: "CON",
      codigo: "0",
      valor: 100,
      identicadorPagamentoAdquirente: res.body.comprovantePagamento,
    });
    expect(payment.body.parcelas).toHaveLength(3);

    const [delivery] = await receiver.waitFor(1);
    expect(delivery!.headers["x-webhook-event"]).toBe("link_payment.paid");
    expect(delivery!.headers["x-webhook-signature"]).toBe(hmacHex(webhookSecret, delivery!.rawBody));
    const event = JSON.parse(delivery!.rawBody.toString("utf8"));
    expect(event).toMatchObject({ event: "link_payment.paid", occurredAt: expect.any(String) });
    expect(event.data).toEqual(res.body);
  });

  it("under concurrent confirmations exactly one succeeds; the others get 409", async () => {
    const created = await createLink();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => confirm(created.body.linkPaymentUuid, linkPayment())),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it("refused card: 422 with the 7.2 fields plus the authorizer's codigo, mensagem and merchantAdviceCode; the link stays payable", async () => {
    const created = await createLink();
    const uuid = created.body.linkPaymentUuid as string;
    const refused = await confirm(uuid, linkPayment({ numeroCartao: cards.refused }));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: "PAYMENT_REFUSED",
      message: expect.any(String),
      details: [],
      traceId: expect.any(String),
      timestamp: expect.any(String),
      codigo: "05",
      mensagem: "Transacao negada",
      merchantAdviceCode: "03",
      identificadorTransacao: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const refusedPayment = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/payments/${refused.body.identificadorTransacao}`,
    );
    expect(refusedPayment.body.status).toBe("NEG");
    expect((await sandbox.request("merchant", "GET", `/api/v1/link-payment/${uuid}`)).body.status).toEqual({
      code: 1,
      description: "CREATED",
    });

    const retry = await confirm(uuid, linkPayment({ numeroCartao: cards.mastercard, bandeiraCartao: "2" }));
    expect(retry.status).toBe(200);
    expect(retry.body.status).toEqual({ code: 3, description: "PAID" });
  });

  it("authorizer failure: 500 and the link is unchanged", async () => {
    const created = await createLink();
    const res = await confirm(created.body.linkPaymentUuid, linkPayment({ numeroCartao: cards.authorizerError }));
    expect(res.status).toBe(500);
    expectPaymentError(res.body, "AUTHORIZER_ERROR");
    expect(
      (await sandbox.request("merchant", "GET", `/api/v1/link-payment/${created.body.linkPaymentUuid}`)).body.status
        .code,
    ).toBe(1);
  });

  it("takes the same installment rules as a payment: tipoParcelamento 3 with 3 installments pays the link", async () => {
    const created = await createLink();
    const res = await confirm(created.body.linkPaymentUuid, linkPayment({ tipoParcelamento: "3", numeroParcelas: 3 }));
    expect(res.status).toBe(200);
    expect(res.body.status).toEqual({ code: 3, description: "PAID" });
    const payment = await sandbox.request("merchant", "GET", `/api/v1/payments/${res.body.identificadorTransacao}`);
    expect(payment.body).toMatchObject({ tipoPagamento: "C" });
    expect(payment.body.parcelas).toHaveLength(3);
  });

  it.each([
    ["valor different from the link", { valor: 99.99 }, "valor"],
    ["more installments than the link offers", { numeroParcelas: 4, tipoParcelamento: "4" }, "numeroParcelas"],
    ["card failing Luhn", { numeroCartao: "4111111111111112" }, "numeroCartao"],
    ["tipoParcelamento missing", { tipoParcelamento: undefined }, "tipoParcelamento"],
  ])("400 with the ErrorResponse: %s", async (_label, overrides, campo) => {
    const created = await createLink();
    const res = await confirm(created.body.linkPaymentUuid, linkPayment(overrides));
    expect(res.status).toBe(400);
    expectPaymentError(res.body, "VALIDATION_ERROR");
    expect(fieldsOf(res.body)).toContain(campo);
  });

  it("400 when the link does not accept cards; 404 for an unknown link", async () => {
    const pixOnly = await createLink({ metodosPagamentosAceitos: [2] });
    const res = await confirm(pixOnly.body.linkPaymentUuid, linkPayment());
    expect(res.status).toBe(400);
    const missing = await confirm("00000000-0000-4000-8000-000000000000", linkPayment());
    expect(missing.status).toBe(404);
    expectPaymentError(missing.body, "NOT_FOUND");
  });

  it("409 when already confirmed, cancelled or expired", async () => {
    const paid = await createLink();
    await confirm(paid.body.linkPaymentUuid, linkPayment());
    const cancelled = await createLink();
    await sandbox.request("merchant", "PUT", `/api/v1/link-payment/${cancelled.body.linkPaymentUuid}/cancel`);
    const expired = await createLink();
    await sandbox.request("merchant", "POST", `/sandbox/v1/payment-links/${expired.body.linkPaymentUuid}/expire`);
    for (const link of [paid, cancelled, expired]) {
      const res = await confirm(link.body.linkPaymentUuid, linkPayment());
      expect(res.status).toBe(409);
      expectPaymentError(res.body, "CONFLICT");
    }
  });
});

describe("cancel link (PUT /api/v1/link-payment/{uuid}/cancel)", () => {
  it("answers 200 with the link in status 4 CANCELLED; 409 when cancelled again or paid; 404 unknown", async () => {
    const created = await createLink();
    const res = await sandbox.request("merchant", "PUT", `/api/v1/link-payment/${created.body.linkPaymentUuid}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created.body, status: { code: 4, description: "CANCELLED" } });
    const again = await sandbox.request(
      "merchant",
      "PUT",
      `/api/v1/link-payment/${created.body.linkPaymentUuid}/cancel`,
    );
    expect(again.status).toBe(409);
    expectPaymentError(again.body, "CONFLICT");

    const paid = await createLink();
    await confirm(paid.body.linkPaymentUuid, linkPayment());
    const cancelPaid = await sandbox.request(
      "merchant",
      "PUT",
      `/api/v1/link-payment/${paid.body.linkPaymentUuid}/cancel`,
    );
    expect(cancelPaid.status).toBe(409);

    const missing = await sandbox.request(
      "merchant",
      "PUT",
      "/api/v1/link-payment/00000000-0000-4000-8000-000000000000/cancel",
    );
    expect(missing.status).toBe(404);
  });

  it("cancels an expired link (the table allows it: not cancelled or confirmed)", async () => {
    const created = await createLink();
    await sandbox.request("merchant", "POST", `/sandbox/v1/payment-links/${created.body.linkPaymentUuid}/expire`);
    const res = await sandbox.request("merchant", "PUT", `/api/v1/link-payment/${created.body.linkPaymentUuid}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toEqual({ code: 4, description: "CANCELLED" });
  });
});

describe("control API: POST /sandbox/v1/payment-links/{uuid}/expire", () => {
  it("expires a CREATED link (200, 2 EXPIRED); 409 unless CREATED; 404 unknown", async () => {
    const created = await createLink();
    const res = await sandbox.request(
      "merchant",
      "POST",
      `/sandbox/v1/payment-links/${created.body.linkPaymentUuid}/expire`,
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toEqual({ code: 2, description: "EXPIRED" });
    const again = await sandbox.request(
      "merchant",
      "POST",
      `/sandbox/v1/payment-links/${created.body.linkPaymentUuid}/expire`,
    );
    expect(again.status).toBe(409);
    expectPaymentError(again.body, "CONFLICT");
    const missing = await sandbox.request(
      "merchant",
      "POST",
      "/sandbox/v1/payment-links/00000000-0000-4000-8000-000000000000/expire",
    );
    expect(missing.status).toBe(404);
  });
});

describe("list links (GET /api/v1/link-payment)", () => {
  it.each([
    ["startDate missing", "endDate=2100-01-01T00:00:00", "startDate"],
    ["endDate missing", "startDate=2000-01-01T00:00:00", "endDate"],
    ["startDate not a date", "startDate=yesterday&endDate=2100-01-01T00:00:00", "startDate"],
    ["endDate before startDate", "startDate=2030-01-01T00:00:00&endDate=2020-01-01T00:00:00", "endDate"],
    ["status in English", `${wholeRun}&status=PAID`, "status"],
    ["paymentMethod 3", `${wholeRun}&paymentMethod=3`, "paymentMethod"],
  ])("400 with the ErrorResponse: %s", async (_label, query, campo) => {
    const res = await sandbox.request("merchant", "GET", `/api/v1/link-payment?${query}`);
    expect(res.status).toBe(400);
    expectPaymentError(res.body, "VALIDATION_ERROR");
    expect(fieldsOf(res.body)).toContain(campo);
  });

  it("answers a plain array, oldest first, with every filter", async () => {
    const fresh = await startSandbox();
    try {
      const make = async (overrides: Record<string, unknown>) =>
        (await fresh.request("merchant", "POST", "/api/v1/link-payment", linkBody(overrides))).body as {
          linkPaymentUuid: string;
        };
      const active = await make({ userReference: "a", numeroInscricao: "11.222.333/0001-81" });
      const paid = await make({ userReference: "p" });
      const cancelled = await make({ userReference: "c" });
      const expired = await make({ userReference: "e" });
      const paidRes = await fresh.request(
        "merchant",
        "PUT",
        `/api/v1/link-payment/confirm-payment/${paid.linkPaymentUuid}`,
        linkPayment(),
      );
      await fresh.request("merchant", "PUT", `/api/v1/link-payment/${cancelled.linkPaymentUuid}/cancel`);
      await fresh.request("merchant", "POST", `/sandbox/v1/payment-links/${expired.linkPaymentUuid}/expire`);
      const uuids = async (query: string) => {
        const res = await fresh.request("merchant", "GET", `/api/v1/link-payment?${wholeRun}${query}`);
        expect(res.status).toBe(200);
        expect(Array.isArray(res.body)).toBe(true);
        return (res.body as { linkPaymentUuid: string }[]).map((link) => link.linkPaymentUuid);
      };
      expect(await uuids("")).toEqual([active, paid, cancelled, expired].map((link) => link.linkPaymentUuid));
      expect(await uuids("&status=ATIVO")).toEqual([active.linkPaymentUuid]);
      expect(await uuids("&status=PAGO")).toEqual([paid.linkPaymentUuid]);
      expect(await uuids("&status=CANCELADO")).toEqual([cancelled.linkPaymentUuid]);
      expect(await uuids("&status=EXPIRADO")).toEqual([expired.linkPaymentUuid]);
      expect(await uuids("&paymentMethod=1")).toEqual([paid.linkPaymentUuid]);
      expect(await uuids("&paymentMethod=2")).toEqual([]);
      expect(await uuids(`&paymentReceipt=${paidRes.body.comprovantePagamento}`)).toEqual([paid.linkPaymentUuid]);
      expect(await uuids("&registrationNumber=11222333000181")).toEqual([active.linkPaymentUuid]);
      expect(await uuids("&registrationNumber=11.222.333/0001-81")).toEqual([active.linkPaymentUuid]);
      expect(await uuids("&userReference=c")).toEqual([cancelled.linkPaymentUuid]);
      const past = await fresh.request(
        "merchant",
        "GET",
        "/api/v1/link-payment?startDate=2000-01-01T00:00:00&endDate=2000-12-31T23:59:59",
      );
      expect(past.body).toEqual([]);
      expect((await fresh.request("merchant-2", "GET", `/api/v1/link-payment?${wholeRun}`)).body).toEqual([]);
    } finally {
      await fresh.stop();
    }
  });
});

describe("isolation between merchants", () => {
  it("merchant-2 gets 404 on read, verify, confirm, cancel and expire of merchant's link, and never lists it", async () => {
    const created = await createLink();
    const { linkPaymentUuid: uuid, tokenVerificacao: code } = created.body as {
      linkPaymentUuid: string;
      tokenVerificacao: number;
    };
    const attempts: [string, string, unknown?][] = [
      ["GET", `/api/v1/link-payment/${uuid}`],
      ["GET", `/api/v1/link-payment/check/${uuid}/${code}`],
      ["PUT", `/api/v1/link-payment/confirm-payment/${uuid}`, linkPayment()],
      ["PUT", `/api/v1/link-payment/${uuid}/cancel`],
      ["POST", `/sandbox/v1/payment-links/${uuid}/expire`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await sandbox.request("merchant-2", method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expectPaymentError(res.body, "NOT_FOUND");
    }
    expect((await sandbox.request("merchant", "GET", `/api/v1/link-payment/${uuid}`)).body.status.code).toBe(1);
    const list = await sandbox.request("merchant-2", "GET", `/api/v1/link-payment?${wholeRun}`);
    expect((list.body as { linkPaymentUuid: string }[]).map((link) => link.linkPaymentUuid)).not.toContain(uuid);
  });
});

describe("card data at rest", () => {
  it("no card number in the data dir or the logs after link payments", async () => {
    for (const number of Object.values(cards)) {
      expect(await filesContaining(sandbox.dataDir, number)).toEqual([]);
      expect(sandbox.output()).not.toContain(number);
    }
  });
});

describe("expiry after diasExpiracao days", () => {
  it("a CREATED link reads as 2 EXPIRED once its days have passed, and can no longer be confirmed", async () => {
    const created = await createLink({ diasExpiracao: 1 });
    const paid = await createLink({ diasExpiracao: 1 });
    await confirm(paid.body.linkPaymentUuid, linkPayment());
    const uuid = created.body.linkPaymentUuid as string;
    // 1 day minus a minute later: still payable; then past the day: expired. The clock offset moves the sandbox's time.
    await sandbox.restart({
      SANDBOX_LINK_BASE_URL: linkBaseUrl,
      SANDBOX_CLOCK_OFFSET_MS: String(24 * 60 * 60 * 1000 - 60_000),
    });
    expect((await sandbox.request("merchant", "GET", `/api/v1/link-payment/${uuid}`)).body.status.code).toBe(1);
    await sandbox.restart({
      SANDBOX_LINK_BASE_URL: linkBaseUrl,
      SANDBOX_CLOCK_OFFSET_MS: String(24 * 60 * 60 * 1000 + 60_000),
    });
    const read = await sandbox.request("merchant", "GET", `/api/v1/link-payment/${uuid}`);
    expect(read.body.status).toEqual({ code: 2, description: "EXPIRED" });
    const listed = await sandbox.request("merchant", "GET", `/api/v1/link-payment?${wholeRun}&status=EXPIRADO`);
    expect((listed.body as { linkPaymentUuid: string }[]).map((link) => link.linkPaymentUuid)).toContain(uuid);
    const late = await confirm(uuid, linkPayment());
    expect(late.status).toBe(409);
    // A paid link stays paid.
    expect(
      (await sandbox.request("merchant", "GET", `/api/v1/link-payment/${paid.body.linkPaymentUuid}`)).body.status.code,
    ).toBe(3);
  });
});
