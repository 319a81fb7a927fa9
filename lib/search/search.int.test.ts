import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionsOfRole } from "@/lib/auth/roles";
import { customerDocumentOf } from "@/lib/customers/viewer";
import { prismaSqlRunner } from "@/lib/db/sql";
import type { Prisma } from "@/lib/generated/prisma/client";
import { openTestDatabase, type TTestDatabase, testBackends } from "@/lib/testing/test-database";

import { searchEverything } from "./search";

const at = (day: string) => new Date(`${day}T15:00:00Z`);

function charge(
  overrides: Partial<Prisma.PixChargeCreateManyInput> & { txid: string },
): Prisma.PixChargeCreateManyInput {
  return {
    amountCents: 1000,
    status: "ACTIVE",
    creationDate: at("2026-11-20"),
    expirationSeconds: 3600,
    expiresAt: at("2026-11-21"),
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
    statusCode: 1,
    statusDescription: "CREATED",
    amountCents: 5000,
    payerName: "Someone",
    payerDocument: "00000000191",
    isForeignPayer: false,
    installments: 1,
    installmentOptions: [],
    acceptedMethodCodes: [1, 2],
    paymentUrl: "https://pay.example/x",
    verificationCode: "secret",
    creationDate: at("2026-11-20"),
    expirationDays: 7,
    expiresAt: at("2026-11-27"),
    raw: {},
    syncedAt: new Date(),
    ...overrides,
  };
}

const cpf = "52998224725";
const cnpj = "11222333000181";
const linkUuid = "3f1c2a9e-1111-4222-8333-444455556666";

// Both backends: the name search relies on search_fold() and its expression indexes (migration), not on pg_trgm.
describe.each(testBackends)("global search (%s)", (backend) => {
  let test: TTestDatabase;
  const search = (query: string, roleId: "administrator" | "operations") =>
    searchEverything(query, { permissions: permissionsOfRole(roleId, null) }, { run: prismaSqlRunner(test.db) });
  async function ids(query: string, roleId: "administrator" | "operations" = "administrator") {
    const { groups } = await search(query, roleId);
    return Object.fromEntries(groups.map((group) => [group.kind, group.hits.map((hit) => hit.id)]));
  }

  afterAll(async () => {
    await test?.close();
  });

  beforeAll(async () => {
    test = await openTestDatabase(backend);
    await test.reset();
    const { db } = test;
    await db.pixCharge.createMany({
      data: [
        charge({ txid: "txjoao0001", debtorName: "João da Silva", debtorCpf: cpf }),
        charge({
          txid: "txpaid0002",
          status: "PAID",
          debtorName: "Empresa Ltda",
          debtorCnpj: cnpj,
          payerName: "Ângela Souza",
          payerDocument: cpf,
          endToEndId: "E12345678202611201500abcdef",
          paidAt: at("2026-11-20"),
          creationDate: at("2026-11-19"),
        }),
        charge({ txid: "txother003", debtorName: "Mario Rossi", debtorCpf: "11144477735" }),
      ],
    });
    await db.paymentLink.create({
      data: link({ linkPaymentUuid: linkUuid, payerName: "JOANA Prado", payerDocument: cnpj }),
    });
    await db.cardPayment.create({
      data: {
        id: "card-payment-1",
        orderId: "ORDER-42",
        status: "CON",
        responseCode: "0",
        responseMessage: "ok",
        isApproved: true,
        amountCents: 4200,
        cardBin: "411111",
        cardLastFour: "4242",
        occurredAt: at("2026-11-20"),
        origin: "TERMINAL",
        raw: {},
        syncedAt: new Date(),
      },
    });
    await db.cardToken.create({
      data: {
        token: "tok_abc",
        status: "ATV",
        brandCode: "1",
        bin: "411111",
        lastFour: "4242",
        expiry: "12/30",
        raw: {},
        syncedAt: new Date(),
      },
    });
  });

  it("finds a Pix charge by txid and by endToEndId", async () => {
    expect(await ids("txother003")).toEqual({ pixCharges: ["txother003"] });
    expect(await ids("E12345678202611201500abcdef")).toEqual({ pixCharges: ["txpaid0002"] });
  });

  it("finds a payment link by uuid, whatever its letter case", async () => {
    expect(await ids(linkUuid.toUpperCase())).toEqual({ paymentLinks: [linkUuid] });
  });

  it("finds a card payment by id and by order id", async () => {
    expect(await ids("card-payment-1")).toEqual({ cardPayments: ["card-payment-1"] });
    expect(await ids("ORDER-42")).toEqual({ cardPayments: ["card-payment-1"] });
  });

  it("finds card payments and saved cards by last four; saved cards only for a role holding savedCards.manage", async () => {
    expect(await ids("4242", "administrator")).toEqual({ cardPayments: ["card-payment-1"], savedCards: ["tok_abc"] });
    expect(await ids("4242", "operations")).toEqual({ cardPayments: ["card-payment-1"] });
    expect(await ids("tok_abc", "operations")).toEqual({});
    const { groups } = await search("tok_abc", "administrator");
    expect(groups[0]?.hits[0]).toMatchObject({ title: "•••• 4242", href: "/cards?token=tok_abc" });
  });

  it("finds charges, links and customers by a CPF or CNPJ typed with punctuation", async () => {
    // The CPF is the debtor of one charge and the payer of another; only the paid one makes a customer.
    expect(await ids("529.982.247-25")).toEqual({ pixCharges: ["txjoao0001", "txpaid0002"], customers: [cpf] });
    expect(await ids("11.222.333/0001-81")).toEqual({ pixCharges: ["txpaid0002"], paymentLinks: [linkUuid] });
  });

  it("finds by the start of a name, ignoring case and accents", async () => {
    expect(await ids("joao")).toEqual({ pixCharges: ["txjoao0001"] });
    expect(await ids("JOA")).toEqual({ pixCharges: ["txjoao0001"], paymentLinks: [linkUuid] });
    expect(await ids("angela sou")).toEqual({ pixCharges: ["txpaid0002"], customers: [cpf] });
    expect(await ids("silva")).toEqual({});
  });

  it("treats LIKE wildcards literally", async () => {
    expect(await ids("%a")).toEqual({});
    expect(await ids("__")).toEqual({});
  });

  it("can answer a name prefix from the search_fold() expression indexes", async () => {
    // The tables are tiny, so the planner is told to avoid sequential scans to show which index it would take.
    const plan = await test.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      const rows = await tx.$queryRawUnsafe<Record<string, string>[]>(
        `EXPLAIN SELECT l."linkPaymentUuid" FROM "PaymentLink" l
          WHERE search_fold(l."payerName") LIKE search_fold($1::text) || '%'`,
        "Joã",
      );
      return rows.map((row) => Object.values(row)[0]).join("\n");
    });
    expect(plan).toContain("PaymentLink_payerName_fold_idx");
  });

  it("links each hit to its detail page", async () => {
    const { groups } = await search("529.982.247-25", "administrator");
    const hrefs = groups.flatMap((group) => group.hits.map((hit) => hit.href));
    expect(hrefs).toEqual(["/pix/txjoao0001", "/pix/txpaid0002", `/customers/${cpf}`]);
  });

  it("shows Administrators whole documents and Operations masked ones, with no document in Operations' customer link", async () => {
    const admin = (await search("529.982.247-25", "administrator")).groups.flatMap((group) => group.hits);
    expect(admin.map((hit) => hit.detail)).toEqual(["529.982.247-25", "529.982.247-25", "529.982.247-25"]);
    const staff = (await search("529.982.247-25", "operations")).groups.flatMap((group) => group.hits);
    expect(staff.map((hit) => hit.detail)).toEqual(["***.982.247-**", "***.982.247-**", "***.982.247-**"]);
    expect(JSON.stringify(staff)).not.toMatch(/529\.?982\.?247-?25/);
    const customer = staff.at(-1)!;
    expect(customer.href).toMatch(/^\/customers\/v1\./);
    expect(customerDocumentOf(decodeURIComponent(customer.href.slice("/customers/".length)))).toBe(cpf);
    const links = (await search("11.222.333/0001-81", "operations")).groups.find(
      (group) => group.kind === "paymentLinks",
    );
    expect(links?.hits[0]?.detail).toBe("**.222.333/0001-**");
  });
});
