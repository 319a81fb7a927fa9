import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prismaSqlRunner } from "@/lib/db/sql";
import { openTestDatabase, type TTestDatabase, testBackends } from "@/lib/testing/test-database";
import { getOverview } from "./overview";
import { resolveOverviewPeriod } from "./schemas";

const at = (iso: string) => new Date(iso);
const synced = { raw: {}, syncedAt: at("2026-11-22T00:00:00Z") };

// São Paulo's 2026-11-20 runs from 03:00 UTC that day to 03:00 UTC the next (UTC−3, no daylight saving).
async function seed(db: TTestDatabase["db"]) {
  const charge = (txid: string, status: string, amountCents: number, paidAt: string | null, refundedCents = 0) => ({
    txid,
    status,
    amountCents,
    paidAmountCents: paidAt ? amountCents : null,
    paidAt: paidAt ? at(paidAt) : null,
    refundedCents,
    creationDate: at("2026-11-19T12:00:00Z"),
    expirationSeconds: 3600,
    expiresAt: at("2026-11-30T00:00:00Z"),
    ...synced,
  });
  await db.pixCharge.createMany({
    data: [
      charge("A", "PAID", 10_000, "2026-11-20T03:00:00.000Z"), // 00:00 in São Paulo: in
      charge("B", "PAID", 5_000, "2026-11-20T02:59:59.999Z"), // 23:59 the day before: out
      charge("C", "PARTIALLY REFUNDED", 2_000, "2026-11-21T02:59:59.999Z", 500), // 23:59: in
      charge("D", "PAID", 3_000, "2026-11-20T12:00:00.000Z"), // paid a link (L1)
      { ...charge("E", "ACTIVE", 700, null), creationDate: at("2026-11-20T10:00:00Z") },
    ],
  });
  const refund = (pixRefundId: string, txid: string, statusCode: number, amountCents: number) => ({
    pixRefundId,
    txid,
    statusCode,
    statusDescription: String(statusCode),
    amountCents,
    creationDate: at("2026-11-20T15:00:00Z"),
    ...synced,
  });
  await db.pixRefund.createMany({
    data: [refund("R1", "C", 3, 500), refund("R2", "A", 2, 1_000), refund("R3", "A", 1, 200)],
  });
  const card = (id: string, status: string, isApproved: boolean, amountCents: number, occurredAt: string) => ({
    id,
    status,
    isApproved,
    responseCode: isApproved ? "0" : "51",
    responseMessage: "",
    amountCents,
    cancelledCents: status === "CAN" ? amountCents : 0,
    occurredAt: at(occurredAt),
    origin: "GATEWAY" as const,
    ...synced,
  });
  await db.cardPayment.createMany({
    data: [
      card("K1", "CON", true, 4_000, "2026-11-20T20:00:00Z"),
      card("K2", "CAN", true, 1_500, "2026-11-20T21:00:00Z"),
      card("K3", "NEG", false, 9_999, "2026-11-20T20:30:00Z"),
      { ...card("K4", "CON", true, 2_500, "2026-11-20T13:00:00Z"), linkPaymentUuid: "L2", origin: "LINK" as const },
    ],
  });
  const link = (uuid: string, statusCode: number, amountCents: number, extra: Record<string, unknown> = {}) => ({
    linkPaymentUuid: uuid,
    linkPaymentId: Number(uuid.slice(1)),
    statusCode,
    statusDescription: String(statusCode),
    amountCents,
    payerName: "Payer",
    payerDocument: "12345678909",
    isForeignPayer: false,
    installments: 1,
    installmentOptions: [],
    acceptedMethodCodes: [1, 2],
    paymentUrl: `https://pay.example/${uuid}`,
    verificationCode: "123456",
    creationDate: at("2026-11-20T04:00:00Z"),
    expirationDays: 7,
    expiresAt: at("2026-11-27T04:00:00Z"),
    ...synced,
    ...extra,
  });
  await db.paymentLink.createMany({
    data: [
      link("L1", 3, 3_000, { pixChargeTxid: "D", paidAt: at("2026-11-20T12:00:05Z"), paidMethodCode: 2 }),
      link("L2", 3, 2_500, { paidAt: at("2026-11-20T13:00:05Z"), paidMethodCode: 1 }),
      link("L3", 3, 1_200, { paidAt: at("2026-11-20T14:00:00Z"), paidMethodCode: 2 }), // paid outside this app
      link("L4", 1, 800),
      link("L5", 1, 900, { expiresAt: at("2026-11-20T20:00:00Z") }), // past its expiry: not open
    ],
  });
}

describe.each(testBackends)("getOverview (%s)", (backend) => {
  let test: TTestDatabase;
  const now = at("2026-11-20T22:00:00Z");

  beforeAll(async () => {
    test = await openTestDatabase(backend);
    await test.reset();
    await seed(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  const overviewOf = (from: string, to: string) =>
    getOverview(resolveOverviewPeriod({ period: "custom", from, to }, now), { now, run: prismaSqlRunner(test.db) });

  it("counts each payment once, in its São Paulo day, net of refunds and cancellations", async () => {
    const overview = await overviewOf("2026-11-20", "2026-11-20");
    expect(overview.pix).toEqual({
      count: 3,
      cents: 15_000,
      refunded: { count: 1, cents: 500 },
      netCents: 14_500,
      viaLink: { count: 1, cents: 3_000 },
    });
    expect(overview.card).toEqual({
      count: 3,
      cents: 8_000,
      approvedCount: 2,
      cancelled: { count: 1, cents: 1_500 },
      netCents: 6_500,
      viaLink: { count: 1, cents: 2_500 },
    });
    // L1 and L2 are counted through their charge and card payment; only L3 stands alone.
    expect(overview.link).toEqual({ count: 1, cents: 1_200 });
    expect(overview.received).toEqual({
      count: 7,
      grossCents: 24_200,
      returnedCents: 2_000,
      netCents: 22_200,
      averageTicketCents: 3_457,
    });
    expect(overview.pendingPix).toEqual({ count: 1, cents: 700 });
    expect(overview.openLinks).toEqual({ count: 1, cents: 800 });
    expect(overview.refundsCreated).toEqual({ count: 1, cents: 200 });
    expect(overview.refundsProcessing).toEqual({ count: 1, cents: 1_000 });
    expect(overview.linkConversion).toEqual({ created: 5, paid: 3 });
  });

  it("puts each amount in its São Paulo hour", async () => {
    const { series } = await overviewOf("2026-11-20", "2026-11-20");
    expect(series).toHaveLength(24);
    const nonZero = series.filter((row) => row.pix || row.card || row.link);
    expect(nonZero).toEqual([
      { bucket: "2026-11-20T00", pix: 10_000, card: 0, link: 0 },
      { bucket: "2026-11-20T09", pix: 3_000, card: 0, link: 0 },
      { bucket: "2026-11-20T10", pix: 0, card: 2_500, link: 0 },
      { bucket: "2026-11-20T11", pix: 0, card: 0, link: 1_200 },
      { bucket: "2026-11-20T17", pix: 0, card: 4_000, link: 0 },
      { bucket: "2026-11-20T18", pix: 0, card: 1_500, link: 0 },
      { bucket: "2026-11-20T23", pix: 2_000, card: 0, link: 0 },
    ]);
  });

  it("moves the charge paid at 02:59 UTC into the day before, by day", async () => {
    const overview = await overviewOf("2026-11-19", "2026-11-20");
    expect(overview.series).toEqual([
      { bucket: "2026-11-19", pix: 5_000, card: 0, link: 0 },
      { bucket: "2026-11-20", pix: 15_000, card: 8_000, link: 1_200 },
    ]);
    expect(overview.pix.count).toBe(4);
  });
});
