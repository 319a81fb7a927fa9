import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { prismaSqlRunner } from "@/lib/db/sql";
import { type TPixCharge, ZPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { ZPixRefund } from "@/lib/gateway/schemas/pix-refund";
import { Prisma } from "@/lib/generated/prisma/client";
import { openTestDatabase, type TTestDatabase, testBackends } from "@/lib/testing/test-database";
import { paidCharge, refundReturnedEvent } from "@/lib/webhooks/testing/fixtures";
import { lockPixCharge, upsertPixChargeFromGateway, upsertPixRefundFromGateway } from "./mirror";
import { localChargeColumns, upstreamChargeColumns, writeFullChargesWithoutRefunds } from "./mirror-sql";

// Both write paths come from upstreamChargeColumns; a column added to the model must be added
// there (or, if the mirror computes it, to localChargeColumns), or this fails.
describe("the PixCharge column lists", () => {
  it("cover every column of the model, once", () => {
    const listed = [...Object.keys(upstreamChargeColumns), ...localChargeColumns];
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.sort()).toEqual(Object.values(Prisma.PixChargeScalarFieldEnum).sort());
  });
});

// The webhook's one-statement write must store exactly what the general upsert stores, and refuse
// the same moves back: each scenario runs through both on two charges and compares the rows.
describe.each(testBackends)("writeFullChargesWithoutRefunds matches upsertPixChargeFromGateway (%s)", (backend) => {
  let test: TTestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await test?.close();
  });
  beforeEach(async () => {
    await test.reset();
  });

  // The same snapshot under two txids (the fixture derives the endToEndId from its txid).
  const charge = (txid: string, overrides: Record<string, unknown> = {}) =>
    ZPixCharge.parse({ ...paidCharge("TX", overrides), txid });
  const general = async (data: TPixCharge, now: Date) =>
    (await test.db.$transaction((tx) => upsertPixChargeFromGateway(data, { client: tx, now }))).outcome;
  const oneStatement = async (data: TPixCharge, now: Date) =>
    (
      await test.db.$transaction(async (tx) => {
        await lockPixCharge(tx, data.txid);
        const [written] = await writeFullChargesWithoutRefunds(prismaSqlRunner(tx), [data], now);
        return written!;
      })
    ).outcome;
  // The row without what differs by construction: the key, and the clocks Prisma sets itself.
  const stored = async (txid: string) => {
    const {
      txid: _txid,
      createdAt: _createdAt,
      updatedAt,
      raw,
      ...row
    } = await test.db.pixCharge.findUniqueOrThrow({ where: { txid } });
    return { ...row, raw: { ...(raw as object), txid: "-" }, updatedAt };
  };

  async function runBoth(steps: { overrides: Record<string, unknown>; refundFirst?: boolean }[]) {
    const [a, b] = [`TXA${randomUUID().replaceAll("-", "")}`, `TXB${randomUUID().replaceAll("-", "")}`];
    const outcomes: [string, string][] = [];
    for (const [index, step] of steps.entries()) {
      const now = new Date(Date.UTC(2026, 10, 21, 13, 0, index));
      if (step.refundFirst) {
        for (const txid of [a, b]) {
          const refund = ZPixRefund.parse(refundReturnedEvent(txid, randomUUID()).data);
          await test.db.$transaction((tx) => upsertPixRefundFromGateway(refund, { client: tx, now }));
        }
      }
      outcomes.push([
        await general(charge(a, step.overrides), now),
        await oneStatement(charge(b, step.overrides), now),
      ]);
      const [rowA, rowB] = [await stored(a), await stored(b)];
      expect({ ...rowB, updatedAt: undefined }).toEqual({ ...rowA, updatedAt: undefined });
      // updatedAt moves only when the data does: both moved at this step, or neither did.
      expect(rowB.updatedAt.getTime() === now.getTime()).toBe(
        outcomes.at(-1)![0] === "created" || outcomes.at(-1)![0] === "updated",
      );
    }
    for (const [generalOutcome, oneStatementOutcome] of outcomes) expect(oneStatementOutcome).toBe(generalOutcome);
    return outcomes.map(([outcome]) => outcome);
  }

  const active = { status: "ACTIVE", pix: null };

  it("creates, moves forward and confirms an unchanged state the same way", async () => {
    expect(await runBoth([{ overrides: active }, { overrides: {} }, { overrides: {} }])).toEqual([
      "created",
      "updated",
      "unchanged",
    ]);
    expect(
      await runBoth([
        { overrides: { debtor: { name: "Fulano", naturalPersonIdentification: "529.982.247-25" }, description: "x" } },
      ]),
    ).toEqual(["created"]);
  });

  it("refuses the same moves back", async () => {
    expect(await runBoth([{ overrides: {} }, { overrides: active }])).toEqual(["created", "stale"]);
    expect(await runBoth([{ overrides: { status: "EXPIRED", pix: null } }, { overrides: {} }])).toEqual([
      "created",
      "stale",
    ]);
    // A snapshot that does not know a mirrored refund is older than the mirror; without refunds it may move back.
    expect(await runBoth([{ overrides: { status: "REFUNDED" } }, { overrides: {}, refundFirst: true }])).toEqual([
      "created",
      "stale",
    ]);
    expect(await runBoth([{ overrides: { status: "REFUNDED" } }, { overrides: {} }])).toEqual(["created", "updated"]);
    expect(await runBoth([{ overrides: { status: "SOMETHING NEW" } }, { overrides: active }])).toEqual([
      "created",
      "updated",
    ]);
  });

  // The webhook's fast path: a payload the mirror does not confirm writes nothing.
  it("writes only over a mirrored charge of the same amount with onlyMatching", async () => {
    const txid = `TXM${randomUUID().replaceAll("-", "")}`;
    const now = new Date(Date.UTC(2026, 10, 21, 13, 0, 0));
    const writeMatching = (charges: TPixCharge[]) =>
      test.db.$transaction(async (tx) => {
        for (const data of charges) await lockPixCharge(tx, data.txid);
        return writeFullChargesWithoutRefunds(prismaSqlRunner(tx), charges, now, { onlyMatching: true });
      });
    const onlyMatching = async (data: TPixCharge) => (await writeMatching([data]))[0];
    expect(await onlyMatching(charge(txid))).toBeNull();
    expect(await test.db.pixCharge.count({ where: { txid } })).toBe(0);
    await general(charge(txid, active), now);
    const otherPaidAmount = { pix: { ...paidCharge("TX").pix, amount: "0.01" } };
    expect(await onlyMatching(charge(txid, { amount: 0.01, ...otherPaidAmount }))).toBeNull();
    expect(await onlyMatching(charge(txid, otherPaidAmount))).toBeNull();
    expect(await test.db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({ status: "ACTIVE" });
    expect((await onlyMatching(charge(txid)))?.outcome).toBe("updated");
    expect(await test.db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      status: "PAID",
      paidAmountCents: 2590,
    });

    // Several charges in one statement (a webhook batch): each answered in order, as alone.
    const [matched, mismatched, unknown] = [1, 2, 3].map(() => `TXM${randomUUID().replaceAll("-", "")}`);
    await general(charge(matched!, active), now);
    await general(charge(mismatched!, { ...active, amount: 0.01 }), now);
    const written = await writeMatching([charge(matched!), charge(mismatched!), charge(unknown!)]);
    expect(written.map((result) => result?.outcome ?? null)).toEqual(["updated", null, null]);
    expect(await test.db.pixCharge.findUniqueOrThrow({ where: { txid: mismatched! } })).toMatchObject({
      status: "ACTIVE",
    });
    expect(await test.db.pixCharge.count({ where: { txid: unknown! } })).toBe(0);
  });
});

// The same snapshots, in the same order, under the same txid: the raw-SQL path must leave the very row the Prisma
// path leaves, every column included (the clock is fixed, so the timestamps Prisma takes from it agree too).
describe.each(testBackends)("both Pix write paths store the same row (%s)", (backend) => {
  let test: TTestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase(backend);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await test?.close();
  });

  const txid = `TXS${randomUUID().replaceAll("-", "")}`;
  const snapshots = [
    ZPixCharge.parse({ ...paidCharge("TX", { status: "ACTIVE", pix: null }), txid }),
    ZPixCharge.parse({ ...paidCharge("TX"), txid }),
    ZPixCharge.parse({ ...paidCharge("TX"), txid }),
  ];
  const paths = {
    prisma: (data: TPixCharge, now: Date) =>
      test.db.$transaction((tx) => upsertPixChargeFromGateway(data, { client: tx, now })),
    sql: (data: TPixCharge, now: Date) =>
      test.db.$transaction(async (tx) => {
        await lockPixCharge(tx, data.txid);
        return writeFullChargesWithoutRefunds(prismaSqlRunner(tx), [data], now);
      }),
  };

  async function rowsWrittenBy(path: keyof typeof paths) {
    await test.reset();
    const rows = [];
    for (const [index, snapshot] of snapshots.entries()) {
      const now = new Date(Date.UTC(2026, 10, 21, 13, 0, index));
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(now);
      try {
        await paths[path](snapshot, now);
      } finally {
        vi.useRealTimers();
      }
      rows.push(await test.db.pixCharge.findUniqueOrThrow({ where: { txid } }));
    }
    return rows;
  }

  it("after a create, an update and an unchanged copy", async () => {
    const prisma = await rowsWrittenBy("prisma");
    expect(prisma.map((row) => row.status)).toEqual(["ACTIVE", "PAID", "PAID"]);
    expect(await rowsWrittenBy("sql")).toEqual(prisma);
  });
});
