import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prismaSqlRunner, type TSqlRunner } from "@/lib/db/sql";
import { openTestDatabase, type TTestDatabase, testBackends } from "@/lib/testing/test-database";
import { addUpFigures, getOverview, type TOverview } from "./overview";
import { overviewSources, readRolledDays, refreshOverviewDays } from "./rollup";
import { resolveOverviewPeriod } from "./schemas";
import { defineOverviewSource } from "./sources";

// The overview read through the rollup must equal the direct computation (every day live) after any write: new rows,
// late refunds of old charges, status changes and moved dates on closed days, deletes. Days are São Paulo days
// (UTC−3): 2026-11-20 runs from 03:00 UTC that day to 03:00 UTC the next.

const at = (iso: string) => new Date(iso);
const synced = { raw: {}, syncedAt: at("2026-11-22T00:00:00Z") };
const now = at("2026-11-20T22:00:00Z"); // São Paulo 2026-11-20 19:00: today is 2026-11-20

// A deterministic spread of times over the 40 days before now, some right at a day's edge.
function timeOf(index: number, days = 40): Date {
  const base = Date.parse("2026-10-11T03:00:00Z");
  if (index % 7 === 0) return new Date(base + (index % days) * 86_400_000 - 1); // 23:59:59.999 the day before
  return new Date(base + ((index * 7_919_000) % (days * 86_400_000)));
}

async function seed(db: TTestDatabase["db"]) {
  const statuses = ["PAID", "PAID", "PARTIALLY REFUNDED", "REFUNDED", "ACTIVE", "EXPIRED"];
  await db.pixCharge.createMany({
    data: Array.from({ length: 120 }, (_, index) => {
      const status = statuses[index % statuses.length]!;
      const isPaid = status !== "ACTIVE" && status !== "EXPIRED";
      const creationDate = timeOf(index);
      return {
        txid: `T${String(index).padStart(4, "0")}`,
        status,
        amountCents: 1_000 + index * 37,
        paidAmountCents: isPaid && index % 5 !== 0 ? 1_000 + index * 37 + (index % 3) : null,
        paidAt: isPaid ? new Date(creationDate.getTime() + 60_000 * (index % 90)) : null,
        refundedCents: status === "REFUNDED" ? 1_000 + index * 37 : 0,
        creationDate,
        expirationSeconds: 3600,
        expiresAt: new Date(creationDate.getTime() + 3_600_000),
        ...synced,
      };
    }),
  });
  await db.pixRefund.createMany({
    data: Array.from({ length: 30 }, (_, index) => ({
      pixRefundId: `R${index}`,
      txid: `T${String(index * 3).padStart(4, "0")}`,
      statusCode: [3, 3, 1, 2, 4][index % 5]!,
      statusDescription: "seed",
      amountCents: 300 + index,
      creationDate: timeOf(index * 11 + 3),
      ...synced,
    })),
  });
  await db.cardPayment.createMany({
    data: Array.from({ length: 60 }, (_, index) => {
      const status = ["CON", "CON", "CAN", "NEG"][index % 4]!;
      const amountCents = 2_000 + index * 53;
      return {
        id: `K${index}`,
        status,
        isApproved: status !== "NEG",
        responseCode: status === "NEG" ? "51" : "0",
        responseMessage: "",
        amountCents,
        cancelledCents: status === "CAN" ? amountCents : 0,
        occurredAt: timeOf(index * 5 + 1),
        origin: "GATEWAY" as const,
        linkPaymentUuid: index % 6 === 0 ? `L${index}` : null,
        ...synced,
      };
    }),
  });
  await db.paymentLink.createMany({
    data: Array.from({ length: 12 }, (_, index) => ({
      linkPaymentUuid: `L${index * 6}`,
      linkPaymentId: index + 1,
      statusCode: index % 2 === 0 ? 3 : 1,
      statusDescription: "seed",
      amountCents: 5_000,
      payerName: "Payer",
      payerDocument: "12345678909",
      isForeignPayer: false,
      installments: 1,
      installmentOptions: [],
      acceptedMethodCodes: [1, 2],
      paymentUrl: `https://pay.example/${index}`,
      verificationCode: "123456",
      creationDate: timeOf(index * 13),
      expirationDays: 7,
      expiresAt: new Date(timeOf(index * 13).getTime() + 7 * 86_400_000),
      paidAt: index % 2 === 0 ? new Date(timeOf(index * 13).getTime() + 3_600_000) : null,
      pixChargeTxid: index % 4 === 0 ? `T${String(index * 5).padStart(4, "0")}` : null,
      ...synced,
    })),
  });
}

describe.each(testBackends)("the overview's daily rollup (%s)", (backend) => {
  let test: TTestDatabase;
  let run: TSqlRunner;

  beforeAll(async () => {
    test = await openTestDatabase(backend);
    await test.reset();
    await seed(test.db);
    run = prismaSqlRunner(test.db);
  });
  afterAll(async () => {
    await test?.close();
  });

  // One connection on PGlite: the refresh runs its statements on the transaction's own client.
  const refresh = (at = now) =>
    refreshOverviewDays({
      now: at,
      inTransaction: (work) => test.db.$transaction((tx) => work(prismaSqlRunner(tx)), { timeout: 60_000 }),
    });
  const periods = [
    ["the last 30 days", "2026-10-22", "2026-11-20"],
    ["7 closed days", "2026-11-01", "2026-11-07"],
    ["the most the UI allows (366 days)", "2025-11-20", "2026-11-20"],
    ["one closed day, by hour", "2026-11-02", "2026-11-02"],
  ] as const;
  const overviewOf = (from: string, to: string, options: { useRollup?: boolean; at?: Date } = {}) =>
    getOverview(resolveOverviewPeriod({ period: "custom", from, to }, options.at ?? now), {
      now: options.at ?? now,
      run,
      useRollup: options.useRollup,
    });
  async function expectSameAsDirect(at = now): Promise<TOverview[]> {
    const results: TOverview[] = [];
    for (const [, from, to] of periods) {
      const direct = await overviewOf(from, to, { useRollup: false, at });
      expect(await overviewOf(from, to, { at })).toEqual(direct);
      results.push(direct);
    }
    return results;
  }
  const rolledDayCount = async () =>
    (await readRolledDays(run, { from: "2025-11-20", to: "2026-11-20", today: "2026-11-20" })).length;

  it("is the direct computation before the job has run (nothing precomputed)", async () => {
    expect(await test.db.overviewDay.count()).toBe(0);
    await expectSameAsDirect();
  });

  it("writes every closed day with data once, never today, and reads them back to the same figures", async () => {
    const first = await refresh();
    // 2026-10-10 (the day before the spread starts, from a 23:59:59.999 row) to 2026-11-19.
    expect(first.days).toBe(41);
    expect(await test.db.overviewDay.count()).toBe(41);
    expect(await test.db.overviewDay.findFirst({ where: { day: at("2026-11-20T00:00:00Z") } })).toBeNull();
    expect(await rolledDayCount()).toBe(41);
    // Nothing changed since: a second run writes nothing.
    expect(await refresh()).toEqual({ days: 0, batches: 0 });
    const [last30] = await expectSameAsDirect();
    // Never double counted: the buckets add up to the gross, and every received Pix is in it exactly once.
    const seriesTotal = last30!.series.reduce((sum, row) => sum + row.pix + row.card + row.link, 0);
    expect(seriesTotal).toBe(last30!.received.grossCents);
    const [pix] = await test.db.$queryRawUnsafe<{ cents: string }[]>(
      `SELECT coalesce(sum(coalesce("paidAmountCents", "amountCents")), 0)::text AS cents FROM "PixCharge"
        WHERE status IN ('PAID', 'PARTIALLY REFUNDED', 'REFUNDED')
          AND "paidAt" >= '2026-10-22T03:00:00' AND "paidAt" < '2026-11-21T03:00:00'`,
    );
    expect(last30!.pix.cents).toBe(Number(pix!.cents));
  });

  it("stays right after late refunds, status changes, moved dates and deletes on closed days, before and after the job", async () => {
    const db = test.db;
    const changes: [string, () => Promise<unknown>][] = [
      // A refund of last month's charge, requested on an old day and returned (a late webhook).
      [
        "late refund",
        () =>
          db.pixRefund.create({
            data: {
              pixRefundId: "LATE1",
              txid: "T0001",
              statusCode: 3,
              statusDescription: "late",
              amountCents: 777,
              creationDate: at("2026-11-02T15:00:00Z"),
              ...synced,
            },
          }),
      ],
      ["refund settles", () => db.pixRefund.update({ where: { pixRefundId: "R2" }, data: { statusCode: 3 } })],
      // A pending charge of an old day turns paid when its webhook arrives days later.
      [
        "late paid webhook",
        () =>
          db.pixCharge.update({
            where: { txid: "T0004" },
            data: { status: "PAID", paidAt: at("2026-11-03T12:00:00Z"), paidAmountCents: 1_148 },
          }),
      ],
      ["charge refunded", () => db.pixCharge.update({ where: { txid: "T0000" }, data: { status: "REFUNDED" } })],
      // The reconciler heals a paid time into another day.
      [
        "paidAt healed",
        () => db.pixCharge.update({ where: { txid: "T0007" }, data: { paidAt: at("2026-11-05T02:59:59.999Z") } }),
      ],
      [
        "card cancelled",
        () => db.cardPayment.update({ where: { id: "K1" }, data: { status: "CAN", cancelledCents: 2_053 } }),
      ],
      ["card removed", () => db.cardPayment.delete({ where: { id: "K5" } })],
      // A link paid elsewhere turns out to have been paid by a Pix charge the mirror learns of later.
      [
        "link's charge mirrored late",
        () =>
          db.pixCharge.create({
            data: {
              txid: "LATELINK",
              status: "PAID",
              amountCents: 5_000,
              paidAmountCents: 5_000,
              paidAt: at("2026-11-06T12:00:00Z"),
              creationDate: at("2026-11-06T11:59:00Z"),
              expirationSeconds: 3600,
              expiresAt: at("2026-11-06T12:59:00Z"),
              ...synced,
            },
          }),
      ],
      [
        "link points at it",
        () => db.paymentLink.update({ where: { linkPaymentUuid: "L12" }, data: { pixChargeTxid: "LATELINK" } }),
      ],
      // L60 is the one link paid elsewhere (no charge or card payment of it is mirrored).
      ["link unpaid", () => db.paymentLink.update({ where: { linkPaymentUuid: "L60" }, data: { statusCode: 1 } })],
      ["link paid again", () => db.paymentLink.update({ where: { linkPaymentUuid: "L60" }, data: { statusCode: 3 } })],
      // A link's card payment arrives late: the link no longer counts on its own.
      [
        "link's card payment late",
        () =>
          db.cardPayment.create({
            data: {
              id: "KLATE",
              status: "CON",
              isApproved: true,
              responseCode: "0",
              responseMessage: "",
              amountCents: 5_000,
              occurredAt: at("2026-11-07T12:00:00Z"),
              origin: "LINK",
              linkPaymentUuid: "L60",
              ...synced,
            },
          }),
      ],

      ["raw bulk update", () => db.$executeRawUnsafe(`UPDATE "PixCharge" SET "paidAmountCents" = "amountCents" + 1`)],
    ];
    for (const [name, change] of changes) {
      const before = await rolledDayCount();
      await change();
      // The touched days fall back to live at once, before any job runs.
      expect(await rolledDayCount(), name).toBeLessThan(before);
      await expectSameAsDirect();
      await refresh();
      expect(await rolledDayCount(), name).toBe(41);
      await expectSameAsDirect();
    }
  });

  it("counts the day that just closed live until the job writes it, then from the rollup", async () => {
    const tomorrow = at("2026-11-21T15:00:00Z");
    await test.db.pixCharge.create({
      data: {
        txid: "TODAY",
        status: "PAID",
        amountCents: 4_200,
        paidAmountCents: 4_200,
        paidAt: at("2026-11-20T21:00:00Z"),
        creationDate: at("2026-11-20T20:59:00Z"),
        expirationSeconds: 3600,
        expiresAt: at("2026-11-20T22:00:00Z"),
        ...synced,
      },
    });
    await expectSameAsDirect(tomorrow);
    const last30 = await overviewOf("2026-10-22", "2026-11-20", { at: tomorrow });
    expect(last30.series.at(-1)?.pix).toBeGreaterThanOrEqual(4_200);
    expect((await refresh(tomorrow)).days).toBe(1);
    expect(
      (await readRolledDays(run, { from: "2026-11-20", to: "2026-11-20", today: "2026-11-21" })).map((d) => d.day),
    ).toEqual(["2026-11-20"]);
    await expectSameAsDirect(tomorrow);
  });

  it("names no open day in the change log, and waits an hour after midnight before computing a day", async () => {
    // The database's own today (the trigger reads now()), not the test's fixed clock.
    const before = await test.db.overviewDayChange.count();
    await test.db.$executeRawUnsafe(
      `INSERT INTO "OverviewDayChange" ("day") VALUES ((now() AT TIME ZONE 'America/Sao_Paulo')::date), ('2026-01-05')`,
    );
    expect(await test.db.overviewDayChange.count()).toBe(before + 1);
    // 00:30 in São Paulo on 2026-11-22: 2026-11-21 closed half an hour ago, so it is not computed yet.
    await refresh(at("2026-11-22T03:30:00Z"));
    expect(await test.db.overviewDay.findFirst({ where: { day: at("2026-11-21T00:00:00Z") } })).toBeNull();
    await refresh(at("2026-11-22T04:30:00Z"));
    expect(await test.db.overviewDay.findFirst({ where: { day: at("2026-11-21T00:00:00Z") } })).not.toBeNull();
  });
  it("rolls up a resource registered later: days rolled before it are read live until computed again", async () => {
    // A stand-in payment method over an existing table: charges by the day they were created.
    const boleto = defineOverviewSource({
      key: "boletoIssued",
      figures: ["boleto"],
      from: `"PixCharge" c`,
      time: `c."creationDate"`,
      where: "TRUE",
      select: `count(*) AS "boletoCount", sum(c."amountCents") AS "boletoCents"`,
    });
    const sources = [...overviewSources, boleto];
    const period = resolveOverviewPeriod({ period: "custom", from: "2026-10-22", to: "2026-11-20" }, now);
    const figuresOf = async (useRollup: boolean) => {
      const { figures, series } = await addUpFigures(period, run, { now, useRollup, sources });
      return { figures: Object.fromEntries(figures), series };
    };
    const direct = await figuresOf(false);
    const range = { from: period.from, to: period.to, today: "2026-11-20" };
    const rolledBefore = (await readRolledDays(run, range)).length;
    expect(rolledBefore).toBeGreaterThan(0);
    expect(await readRolledDays(run, range, sources)).toEqual([]);
    expect(await figuresOf(true)).toEqual(direct);

    const written = await refreshOverviewDays({
      now,
      sources,
      inTransaction: (work) => test.db.$transaction((tx) => work(prismaSqlRunner(tx)), { timeout: 60_000 }),
    });
    expect(written.days).toBeGreaterThanOrEqual(rolledBefore);
    expect((await readRolledDays(run, range, sources)).length).toBe(rolledBefore);
    expect(await figuresOf(true)).toEqual(direct);
    const [created] = await test.db.$queryRawUnsafe<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM "PixCharge"
        WHERE "creationDate" >= '2026-10-22T03:00:00' AND "creationDate" < '2026-11-21T03:00:00'`,
    );
    expect(direct.figures.boleto?.count).toBe(created!.count);
    // The resources already registered still read the days written with one more figure.
    expect((await readRolledDays(run, range)).length).toBe(rolledBefore);
    await expectSameAsDirect();
  });
});
