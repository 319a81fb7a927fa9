import jsQR from "jsqr";
import { parsePix } from "pix-utils";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseBrCode } from "../../lib/shared/br-code";
import { createCharge, createPaidCharge, expectPixError, expectValidationError, wholeRange } from "./fixtures";
import { startSandbox, type TSandbox } from "./harness";

let sandbox: TSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ env: { SANDBOX_MERCHANT_NAME: "Loja Exemplo", SANDBOX_MERCHANT_CITY: "Curitiba" } });
});
afterAll(() => sandbox?.stop());

const cpf = "529.982.247-25";
const cnpj = "11.222.333/0001-81";

function decodeQr(base64: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(base64, "base64"));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe("POST /api/v1/pix-charges", () => {
  it("creates an ACTIVE charge (201) with the 2.7 shape", async () => {
    const body = {
      amount: 123.45,
      expiration: 600,
      debtor: { name: "Fulano de Tal", naturalPersonIdentification: cpf },
      description: "Pedido 42",
      userReference: "order-42",
    };
    const response = await sandbox.request("merchant", "POST", "/api/v1/pix-charges", body);
    expect(response.status).toBe(201);
    const charge = response.body;
    expect(charge).toMatchObject({
      amount: 123.45,
      status: "ACTIVE",
      debtor: { name: "Fulano de Tal", naturalPersonIdentification: "52998224725" },
      description: "Pedido 42",
      userReference: "order-42",
      pix: null,
      devolutionAllowed: false,
      devolutions: null,
      calendar: { expiration: 600 },
    });
    expect(charge.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    const created = Date.parse(charge.calendar.creationDate);
    expect(Date.parse(charge.calendar.expirationDate) - created).toBe(600_000);
    expect(Math.abs(created - Date.now())).toBeLessThan(5_000);
  });

  it("issues a dynamic BR Code that parsers accept and a PNG QR that decodes back to it", async () => {
    const charge = await createCharge(sandbox, "merchant", { amount: 10.5 });
    const parsed = parseBrCode(charge.pixCopyAndPaste);
    expect(parsed).toMatchObject({
      pointOfInitiationMethod: "12",
      gui: "br.gov.bcb.pix",
      currency: "986",
      amount: "10.50",
      countryCode: "BR",
      merchantName: "Loja Exemplo",
      merchantCity: "Curitiba",
      txid: charge.txid,
    });
    expect(parsed.payloadUrl).toMatch(new RegExp(`^127\\.0\\.0\\.1:${sandbox.port}/pix/v2/cobv/[0-9a-f-]{36}$`));
    expect(parsePix(charge.pixCopyAndPaste)).toMatchObject({ type: "DYNAMIC", url: parsed.payloadUrl });
    expect(decodeQr(charge.qrCodeBase64)).toBe(charge.pixCopyAndPaste);
  });

  it("defaults expiration to 3600 s and debtor, description, userReference to null", async () => {
    const charge = await createCharge(sandbox, "merchant", { amount: 1 });
    expect(charge).toMatchObject({
      calendar: { expiration: 3600 },
      debtor: null,
      description: null,
      userReference: null,
    });
  });

  it("accepts a legal-person debtor (CNPJ)", async () => {
    const charge = await createCharge(sandbox, "merchant", {
      debtor: { name: "Empresa SA", legalPersonIdentification: cnpj },
    });
    expect(charge.debtor).toEqual({ name: "Empresa SA", legalPersonIdentification: "11222333000181" });
  });

  it.each([
    ["missing amount", {}, "amount"],
    ["amount below 0.01", { amount: 0 }, "amount"],
    ["amount with three decimals", { amount: 1.005 }, "amount"],
    ["amount as a string", { amount: "10.00" }, "amount"],
    ["expiration not an integer", { amount: 1, expiration: 1.5 }, "expiration"],
    ["expiration zero", { amount: 1, expiration: 0 }, "expiration"],
    [
      "invalid CPF",
      { amount: 1, debtor: { name: "X", naturalPersonIdentification: "52998224715" } },
      "debtor.naturalPersonIdentification",
    ],
    [
      "invalid CNPJ",
      { amount: 1, debtor: { name: "X", legalPersonIdentification: "11222333000180" } },
      "debtor.legalPersonIdentification",
    ],
    ["debtor without document", { amount: 1, debtor: { name: "X" } }, "debtor.naturalPersonIdentification"],
    [
      "debtor with both documents",
      { amount: 1, debtor: { name: "X", naturalPersonIdentification: cpf, legalPersonIdentification: cnpj } },
      "debtor.naturalPersonIdentification",
    ],
    ["debtor without name", { amount: 1, debtor: { naturalPersonIdentification: cpf } }, "debtor.name"],
  ])("answers 400 VALIDACAO_INVALIDA for %s", async (_name, body, field) => {
    expectValidationError(await sandbox.request("merchant", "POST", "/api/v1/pix-charges", body), field);
  });

  it("answers 400 for a missing body", async () => {
    expectValidationError(await sandbox.request("merchant", "POST", "/api/v1/pix-charges"));
  });
});

describe("GET /api/v1/pix-charges/{txid}", () => {
  it("reads the charge (200)", async () => {
    const charge = await createCharge(sandbox);
    const response = await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(charge);
  });

  it("answers 404 for an unknown txid", async () => {
    expectPixError(
      await sandbox.request("merchant", "GET", "/api/v1/pix-charges/doesnotexist0000000000000000"),
      404,
      "NAO_ENCONTRADO",
    );
  });
});

describe("GET /api/v1/pix-charges", () => {
  it("answers 400 without initialDate or endDate", async () => {
    expectValidationError(await sandbox.request("merchant", "GET", "/api/v1/pix-charges"), "initialDate", "endDate");
    expectValidationError(
      await sandbox.request("merchant", "GET", "/api/v1/pix-charges?initialDate=2020-01-01T00:00:00Z"),
      "endDate",
    );
    expectValidationError(
      await sandbox.request(
        "merchant",
        "GET",
        "/api/v1/pix-charges?initialDate=yesterday&endDate=2020-01-01T00:00:00Z",
      ),
      "initialDate",
    );
  });

  it("answers 400 for invalid page, size, sort or status", async () => {
    for (const query of ["page=-1", "size=0", "size=101", "sort=nope,asc", "sort=amount,sideways", "status=PAGO"]) {
      expectPixError(
        await sandbox.request("merchant", "GET", `/api/v1/pix-charges?${wholeRange}&${query}`),
        400,
        "VALIDACAO_INVALIDA",
      );
    }
  });

  it("pages, sorts and filters list items (2.10 envelope)", async () => {
    const reference = `list-${Date.now()}`;
    const amounts = [5, 1, 3, 4, 2];
    const created = [];
    for (const amount of amounts)
      created.push(await createCharge(sandbox, "merchant", { amount, userReference: reference }));
    const page0 = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-charges?${wholeRange}&userReference=${reference}&size=2&sort=amount,desc`,
    );
    expect(page0.status).toBe(200);
    expect(page0.body).toMatchObject({
      number: 0,
      size: 2,
      numberOfElements: 2,
      totalElements: 5,
      totalPages: 3,
      first: true,
      last: false,
      empty: false,
    });
    expect(page0.body.content.map((item: { amount: number }) => item.amount)).toEqual([5, 4]);
    const item = page0.body.content[0];
    expect(Object.keys(item).sort()).toEqual([
      "amount",
      "calendar",
      "debtor",
      "description",
      "status",
      "txid",
      "userReference",
    ]);
    const page2 = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-charges?${wholeRange}&userReference=${reference}&size=2&page=2&sort=amount,desc`,
    );
    expect(page2.body).toMatchObject({ number: 2, numberOfElements: 1, first: false, last: true, empty: false });
    expect(page2.body.content[0].amount).toBe(1);
    const beyond = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-charges?${wholeRange}&userReference=${reference}&page=9`,
    );
    expect(beyond.body).toMatchObject({
      number: 9,
      size: 20,
      numberOfElements: 0,
      totalElements: 5,
      empty: true,
      content: [],
    });
    const defaultOrder = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-charges?${wholeRange}&userReference=${reference}`,
    );
    expect(defaultOrder.body.content.map((c: { txid: string }) => c.txid)).toEqual(created.map((c) => c.txid));
  });

  it("filters by status, CPF, CNPJ and creation period", async () => {
    const reference = `filters-${Date.now()}`;
    const byCpf = await createCharge(sandbox, "merchant", {
      userReference: reference,
      debtor: { name: "A", naturalPersonIdentification: cpf },
    });
    const byCnpj = await createCharge(sandbox, "merchant", {
      userReference: reference,
      debtor: { name: "B", legalPersonIdentification: cnpj },
    });
    const paid = await createPaidCharge(sandbox, "merchant", { userReference: reference });
    const list = async (query: string) =>
      (
        await sandbox.request(
          "merchant",
          "GET",
          `/api/v1/pix-charges?${wholeRange}&userReference=${reference}&${query}`,
        )
      ).body.content.map((c: { txid: string }) => c.txid);
    expect(await list("status=PAID")).toEqual([paid.txid]);
    expect(await list("status=ACTIVE")).toEqual([byCpf.txid, byCnpj.txid]);
    expect(await list(`naturalPersonIdentification=${encodeURIComponent(cpf)}`)).toEqual([byCpf.txid]);
    expect(await list("legalPersonIdentification=11222333000181")).toEqual([byCnpj.txid]);
    const future = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-charges?initialDate=2099-01-01T00:00:00&endDate=2099-12-31T23:59:59&userReference=${reference}`,
    );
    expect(future.body.totalElements).toBe(0);
  });
});

describe("charge states (spec 3.4)", () => {
  it("cancels an ACTIVE charge: status Cancelada, qrCodeBase64 null; a second cancel is 409", async () => {
    const charge = await createCharge(sandbox);
    const cancelled = await sandbox.request("merchant", "PUT", `/api/v1/pix-charges/${charge.txid}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      txid: charge.txid,
      status: "Cancelada",
      qrCodeBase64: null,
      pixCopyAndPaste: charge.pixCopyAndPaste,
    });
    expectPixError(
      await sandbox.request("merchant", "PUT", `/api/v1/pix-charges/${charge.txid}/cancel`),
      409,
      "ESTADO_INVALIDO",
    );
    expect((await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`)).body.status).toBe(
      "Cancelada",
    );
  });

  it("refuses to cancel a PAID or EXPIRED charge (409) and an unknown one (404)", async () => {
    const paid = await createPaidCharge(sandbox);
    expectPixError(await sandbox.request("merchant", "PUT", `/api/v1/pix-charges/${paid.txid}/cancel`), 409);
    const expired = await createCharge(sandbox);
    expect((await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${expired.txid}/expire`)).status).toBe(
      200,
    );
    expectPixError(await sandbox.request("merchant", "PUT", `/api/v1/pix-charges/${expired.txid}/cancel`), 409);
    expectPixError(await sandbox.request("merchant", "PUT", "/api/v1/pix-charges/unknown/cancel"), 404);
  });

  it("expires after calendar.expiration seconds, in reads and lists", async () => {
    const reference = `expiry-${Date.now()}`;
    const charge = await createCharge(sandbox, "merchant", { expiration: 1, userReference: reference });
    expect(charge.status).toBe("ACTIVE");
    const read = await vi.waitFor(
      async () => {
        const response = await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`);
        expect(response.body.status).toBe("EXPIRED");
        return response;
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(charge.calendar.expirationDate));
    expect(read.body.qrCodeBase64).toBeNull();
    const list = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-charges?${wholeRange}&userReference=${reference}`,
    );
    expect(list.body.content[0].status).toBe("EXPIRED");
    expectPixError(await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`), 409);
  });

  it("shows EXPIRED in a list even when never read before", async () => {
    const reference = `expiry-list-${Date.now()}`;
    await createCharge(sandbox, "merchant", { expiration: 1, userReference: reference });
    const list = await vi.waitFor(
      async () => {
        const response = await sandbox.request(
          "merchant",
          "GET",
          `/api/v1/pix-charges?${wholeRange}&userReference=${reference}&status=EXPIRED`,
        );
        expect(response.body.totalElements).toBe(1);
        return response;
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(list.body.content[0].status).toBe("EXPIRED");
  });
});

describe("control API for charges", () => {
  it("pays an ACTIVE charge: PAID with the pix object, devolutionAllowed true", async () => {
    const charge = await createCharge(sandbox, "merchant", { amount: 42.1 });
    const paid = await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`, {
      payerName: "Beltrana",
      payerDocumentNumber: cpf,
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      status: "PAID",
      qrCodeBase64: null,
      devolutionAllowed: true,
      devolutions: null,
      pix: { amount: "42.10", payerName: "Beltrana", payerDocumentNumber: "52998224725" },
    });
    expect(paid.body.pix.endToEndId).toMatch(/^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$/);
    expect(Number.isNaN(Date.parse(paid.body.pix.creationDate))).toBe(false);
    expect((await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`)).body).toEqual(paid.body);
  });

  it("refuses to pay a charge that is not ACTIVE (409) and validates the payer (400)", async () => {
    const paid = await createPaidCharge(sandbox);
    expectPixError(await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${paid.txid}/pay`), 409);
    const cancelled = await createCharge(sandbox);
    await sandbox.request("merchant", "PUT", `/api/v1/pix-charges/${cancelled.txid}/cancel`);
    expectPixError(await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${cancelled.txid}/pay`), 409);
    const active = await createCharge(sandbox);
    expectValidationError(
      await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${active.txid}/pay`, {
        payerDocumentNumber: "123",
      }),
      "payerDocumentNumber",
    );
  });

  it("expires an ACTIVE charge now; 409 when it is not ACTIVE", async () => {
    const charge = await createCharge(sandbox);
    const expired = await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/expire`);
    expect(expired.body).toMatchObject({ status: "EXPIRED", qrCodeBase64: null, devolutionAllowed: false });
    expectPixError(await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/expire`), 409);
  });

  it("forgets a charge without refunds: reads answer 404 and lists leave it out; 409 with refunds", async () => {
    const charge = await createCharge(sandbox);
    expect((await sandbox.request("merchant", "DELETE", `/sandbox/v1/pix-charges/${charge.txid}`)).status).toBe(204);
    expectPixError(await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${charge.txid}`), 404);
    const list = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-charges?${wholeRange}&size=100&sort=creationDate,desc`,
    );
    expect(list.body.content.map((item: { txid: string }) => item.txid)).not.toContain(charge.txid);
    expectPixError(await sandbox.request("merchant", "DELETE", `/sandbox/v1/pix-charges/${charge.txid}`), 404);

    const refunded = await createPaidCharge(sandbox);
    const refund = await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid: refunded.txid, amount: 1 });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expectPixError(await sandbox.request("merchant", "DELETE", `/sandbox/v1/pix-charges/${refunded.txid}`), 409);
  });
});
