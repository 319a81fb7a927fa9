import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { findCardPayments } from "./list";
import { type TCardPaymentFilters, ZCardPaymentFilters } from "./schemas";

// 2026-11-20 12:00 in São Paulo (UTC-3) is 15:00 UTC; the list's days are São Paulo days.
const spNoon = (day: string) => new Date(`${day}T15:00:00Z`);

function payment(overrides: Partial<Prisma.CardPaymentCreateManyInput>): Prisma.CardPaymentCreateManyInput {
  return {
    id: randomUUID(),
    status: "CON",
    responseCode: "0",
    responseMessage: "Transacao autorizada",
    isApproved: true,
    amountCents: 1000,
    paymentType: "C",
    brandCode: "1",
    installmentCount: 1,
    occurredAt: spNoon("2026-11-20"),
    origin: "GATEWAY",
    raw: {},
    syncedAt: new Date(),
    ...overrides,
  };
}

const filters = (input: Record<string, unknown>): TCardPaymentFilters =>
  ZCardPaymentFilters.parse({ from: "2026-11-01", to: "2026-11-30", ...input });

const ids = async (input: Record<string, unknown>) =>
  (await findCardPayments(filters(input))).rows.map((row) => row.orderId);

describe("the card payment list (mirror query)", () => {
  beforeAll(async () => {
    await db.cardPayment.deleteMany();
    await db.cardPayment.createMany({
      data: [
        payment({ orderId: "visa-credit", amountCents: 12345, cardLastFour: "1111", origin: "TERMINAL" }),
        payment({
          orderId: "master-debit",
          brandCode: "2",
          paymentType: "D",
          amountCents: 1001,
          cardLastFour: "4444",
          occurredAt: spNoon("2026-11-21"),
        }),
        payment({
          orderId: "cancelled",
          status: "CAN",
          cancelledCents: 5000,
          amountCents: 5000,
          occurredAt: spNoon("2026-11-19"),
        }),
        payment({
          orderId: "refused",
          status: "NEG",
          responseCode: "05",
          responseMessage: "Transacao negada",
          isApproved: false,
          amountCents: 999,
          occurredAt: spNoon("2026-11-18"),
        }),
        // 23:30 on the 30th in São Paulo is already December 1st in UTC: still inside the period.
        payment({ orderId: "late-evening", amountCents: 2000, occurredAt: new Date("2026-12-01T02:30:00Z") }),
        // 00:30 on December 1st in São Paulo: outside.
        payment({ orderId: "next-month", amountCents: 3000, occurredAt: new Date("2026-12-01T03:30:00Z") }),
        payment({ orderId: "last-month", occurredAt: spNoon("2026-10-31") }),
      ],
    });
  });

  it("takes the period in São Paulo days and sorts newest first by default", async () => {
    expect(await ids({})).toEqual(["late-evening", "master-debit", "visa-credit", "cancelled", "refused"]);
    expect(await ids({ from: "2026-11-19", to: "2026-11-20" })).toEqual(["visa-credit", "cancelled"]);
  });

  it("totals approved, refused and cancelled apart, never one amount that adds a refusal to approvals", async () => {
    const page = await findCardPayments(filters({}));
    expect(page.totalCents).toBeUndefined();
    expect(page.totals).toEqual({
      approved: { count: 3, cents: 12345 + 1001 + 2000 },
      refused: { count: 1, cents: 999 },
      cancelled: { count: 1, cents: 5000 },
      unknown: { count: 0, cents: 0 },
    });
    // The totals follow the filters, like the rows.
    expect((await findCardPayments(filters({ status: "refused" }))).totals?.refused).toEqual({ count: 1, cents: 999 });
    expect((await findCardPayments(filters({ status: "refused" }))).totals?.approved).toEqual({ count: 0, cents: 0 });
  });

  it("filters by status: refused is told by the response code, cancelled by CAN", async () => {
    expect(await ids({ status: "approved" })).toEqual(["late-evening", "master-debit", "visa-credit"]);
    expect(await ids({ status: "cancelled" })).toEqual(["cancelled"]);
    expect(await ids({ status: "refused" })).toEqual(["refused"]);
  });

  it("filters by brand, payment type, amount range in reais, order id and last four", async () => {
    expect(await ids({ brand: "2" })).toEqual(["master-debit"]);
    expect(await ids({ type: "D" })).toEqual(["master-debit"]);
    expect(await ids({ minAmount: "10,01", maxAmount: "123.45" })).toEqual([
      "late-evening",
      "master-debit",
      "visa-credit",
      "cancelled",
    ]);
    expect(await ids({ minAmount: "10.02", maxAmount: "123,44" })).toEqual(["late-evening", "cancelled"]);
    expect(await ids({ orderId: "refused" })).toEqual(["refused"]);
    expect(await ids({ lastFour: "4444" })).toEqual(["master-debit"]);
    expect(await ids({ status: "approved", brand: "1", type: "C" })).toEqual(["late-evening", "visa-credit"]);
  });

  it("sorts by amount either way and pages with a stable order", async () => {
    expect(await ids({ sort: "amount", order: "asc" })).toEqual([
      "refused",
      "master-debit",
      "late-evening",
      "cancelled",
      "visa-credit",
    ]);
    expect(await ids({ sort: "date", order: "asc" })).toEqual([
      "refused",
      "cancelled",
      "visa-credit",
      "master-debit",
      "late-evening",
    ]);
    const second = await findCardPayments(filters({ sort: "amount", order: "desc", page: 2 }), 2);
    expect(second).toMatchObject({ total: 5, page: 2, pageCount: 3 });
    expect(second.rows.map((row) => row.orderId)).toEqual(["late-evening", "master-debit"]);
  });

  it("shows what a row needs: status in words, card, origin, ISO date", async () => {
    const [row] = (await findCardPayments(filters({ lastFour: "1111" }))).rows;
    expect(row).toEqual({
      id: expect.any(String),
      occurredAt: "2026-11-20T15:00:00.000Z",
      amountCents: 12345,
      cancelledCents: 0,
      status: "CON",
      statusKind: "approved",
      paymentType: "C",
      brandCode: "1",
      cardLastFour: "1111",
      installmentCount: 1,
      orderId: "visa-credit",
      origin: "TERMINAL",
    });
    const [refused] = (await findCardPayments(filters({ status: "refused" }))).rows;
    expect(refused?.statusKind).toBe("refused");
  });
});
