import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prismaSqlRunner } from "@/lib/db/sql";
import type { Prisma } from "@/lib/generated/prisma/client";
import { openTestDatabase, type TTestDatabase, testBackends } from "@/lib/testing/test-database";

import { findCustomers, getCustomer } from "./customers";
import { ZCustomerFilters } from "./schemas";

const at = (day: string) => new Date(`${day}T15:00:00Z`);

function charge(
  overrides: Partial<Prisma.PixChargeCreateManyInput> & { txid: string },
): Prisma.PixChargeCreateManyInput {
  return {
    amountCents: 1000,
    status: "PAID",
    creationDate: at("2026-11-01"),
    expirationSeconds: 3600,
    expiresAt: at("2026-11-02"),
    raw: {},
    syncedAt: new Date(),
    ...overrides,
  };
}

function link(
  overrides: Partial<Prisma.PaymentLinkCreateManyInput> & { linkPaymentUuid: string },
): Prisma.PaymentLinkCreateManyInput {
  return {
    linkPaymentId: 1,
    statusCode: 3,
    statusDescription: "PAID",
    amountCents: 5000,
    payerName: "Someone",
    payerDocument: "00000000191",
    isForeignPayer: false,
    installments: 1,
    installmentOptions: [],
    acceptedMethodCodes: [1, 2],
    paymentUrl: "https://pay.example/x",
    verificationCode: "secret",
    creationDate: at("2026-11-01"),
    expirationDays: 7,
    expiresAt: at("2026-11-08"),
    raw: {},
    syncedAt: new Date(),
    ...overrides,
  };
}

const ana = "52998224725";
const bruno = "11144477735";
const company = "11222333000181";

describe.each(testBackends)("customers: payers aggregated by CPF/CNPJ (%s)", (backend) => {
  let test: TTestDatabase;
  const run = () => prismaSqlRunner(test.db);
  const list = (input: Record<string, unknown> = {}, pageSize?: number) =>
    findCustomers(ZCustomerFilters.parse(input), { pageSize, run: run() });
  const customer = (document: string) => getCustomer(document, run());

  afterAll(async () => {
    await test?.close();
  });

  beforeAll(async () => {
    test = await openTestDatabase(backend);
    await test.reset();
    const { db } = test;
    await db.pixCharge.createMany({
      data: [
        // Ana: a charge she was the debtor of, and one paid through her link (payer document from the payment).
        charge({ txid: "ana1", debtorName: "Ana Lima", debtorCpf: ana, amountCents: 1000, paidAt: at("2026-11-03") }),
        charge({
          txid: "ana-link",
          amountCents: 7000,
          paidAmountCents: 7000,
          payerName: "Ana Lima Souza",
          payerDocument: ana,
          status: "PARTIALLY REFUNDED",
          paidAt: at("2026-11-10"),
        }),
        // Bruno: a company's charge paid by him — the payer's document wins over the debtor's.
        charge({
          txid: "bruno1",
          debtorName: "Empresa",
          debtorCnpj: company,
          payerName: "Bruno Costa",
          payerDocument: bruno,
          amountCents: 2500,
          paidAt: at("2026-11-05"),
        }),
        // Not paid: not a payment.
        charge({ txid: "ana-open", status: "ACTIVE", debtorCpf: ana, amountCents: 99_999 }),
      ],
    });
    await db.paymentLink.createMany({
      data: [
        // Paid by Pix: its charge counts; the link is not counted a second time.
        link({
          linkPaymentUuid: "link-ana-pix",
          payerName: "Ana",
          payerDocument: ana,
          amountCents: 7000,
          pixChargeTxid: "ana-link",
          paidAt: at("2026-11-10"),
        }),
        // Paid by card: counted as the link.
        link({
          linkPaymentUuid: "link-company",
          payerName: "Empresa Ltda",
          payerDocument: company,
          amountCents: 40_000,
          paidAt: at("2026-11-07"),
        }),
        // Not paid.
        link({ linkPaymentUuid: "link-bruno-open", statusCode: 1, statusDescription: "CREATED", payerDocument: bruno }),
        // A foreign payer's document is not a CPF/CNPJ.
        link({
          linkPaymentUuid: "link-foreign",
          payerDocument: "X1234567",
          isForeignPayer: true,
          paidAt: at("2026-11-08"),
        }),
      ],
    });
  });

  it("totals each payer's paid charges and links, counting a link paid by Pix once", async () => {
    const page = await list();
    expect(page).toMatchObject({ total: 3, page: 1, pageCount: 1 });
    expect(page.rows).toEqual([
      {
        document: company,
        name: "Empresa Ltda",
        paymentCount: 1,
        totalPaidCents: 40_000,
        lastPaidAt: "2026-11-07T15:00:00.000Z",
      },
      {
        document: ana,
        name: "Ana Lima Souza",
        paymentCount: 2,
        totalPaidCents: 8000,
        lastPaidAt: "2026-11-10T15:00:00.000Z",
      },
      {
        document: bruno,
        name: "Bruno Costa",
        paymentCount: 1,
        totalPaidCents: 2500,
        lastPaidAt: "2026-11-05T15:00:00.000Z",
      },
    ]);
  });

  it("sorts by count and last payment either way, and pages", async () => {
    const documents = async (input: Record<string, unknown>) => (await list(input)).rows.map((row) => row.document);
    expect(await documents({ sort: "count", order: "desc" })).toEqual([ana, company, bruno]);
    expect(await documents({ sort: "lastPaid", order: "asc" })).toEqual([bruno, company, ana]);
    const second = await list({ page: 2 }, 2);
    expect(second).toMatchObject({ total: 3, pageCount: 2 });
    expect(second.rows.map((row) => row.document)).toEqual([bruno]);
    expect(await list({ page: 9 }, 2)).toMatchObject({ total: 3, rows: [] });
  });

  it("searches by a document prefix (punctuation allowed) or a name prefix, keeping the full totals", async () => {
    expect((await list({ q: "529.982" })).rows.map((row) => row.document)).toEqual([ana]);
    const byName = await list({ q: "ana lima" });
    expect(byName.rows).toEqual([expect.objectContaining({ document: ana, paymentCount: 2, totalPaidCents: 8000 })]);
    expect(await list({ q: "nobody" })).toMatchObject({ total: 0, rows: [] });
  });

  it("lists one payer's payments, newest first, the Pix charge naming the link it paid", async () => {
    const detail = await customer(ana);
    expect(detail?.customer).toMatchObject({ paymentCount: 2, totalPaidCents: 8000 });
    expect(detail?.payments.map((payment) => [payment.kind, payment.id, payment.linkPaymentUuid])).toEqual([
      ["pix", "ana-link", "link-ana-pix"],
      ["pix", "ana1", null],
    ]);
    expect((await customer(company))?.payments).toEqual([
      expect.objectContaining({ kind: "link", id: "link-company", amountCents: 40_000 }),
    ]);
    // Bruno only paid the company's charge: the company, its debtor, has no Pix payment of its own.
    expect((await customer(company))?.customer.paymentCount).toBe(1);
    expect(await customer("00000000000")).toBeNull();
  });
});
