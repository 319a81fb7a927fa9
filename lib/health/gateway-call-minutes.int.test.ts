import { beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db/client";
import { useAppDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import {
  flushGatewayCallMinutes,
  quantileOfBuckets,
  readGatewayCallSeries,
  readGatewayCallSummaries,
  recordGatewayCall,
} from "./gateway-call-minutes";

const minute = (offset: number) => Date.UTC(2026, 10, 27, 12, offset, 30);

describe("quantileOfBuckets", () => {
  it("interpolates inside the bucket that holds the rank", () => {
    // 10 calls in (0, 5] ms, 10 in (5, 10]: the median sits at the first bucket's top.
    expect(quantileOfBuckets([10, 10, 0], 0.5)).toBe(5);
    expect(quantileOfBuckets([0, 0, 0], 0.5)).toBeNull();
  });
});

describe.each<TTestBackend>(testBackends)("gateway call minutes (%s)", (backend) => {
  useAppDatabase(backend);

  beforeEach(async () => {
    await flushGatewayCallMinutes();
    await db.gatewayCallMinute.deleteMany();
  });

  it("adds every flush of every instance into one row per operation and minute", async () => {
    for (let call = 0; call < 98; call += 1) recordGatewayCall("getPixCharge", "answered", 20, minute(0));
    recordGatewayCall("getPixCharge", "failure", 3_000, minute(0));
    recordGatewayCall("getPixCharge", "clientError", 40, minute(0));
    await flushGatewayCallMinutes();
    // A second flush into the same minute, as another instance's would be.
    recordGatewayCall("getPixCharge", "failure", 12_000, minute(0));
    recordGatewayCall("createPixCharge", "answered", 120, minute(1));
    await flushGatewayCallMinutes();

    const rows = await db.gatewayCallMinute.findMany({ orderBy: { operation: "asc" } });
    expect(rows.map((row) => [row.operation, row.calls, row.failures, row.clientErrors])).toEqual([
      ["createPixCharge", 1, 0, 0],
      ["getPixCharge", 101, 2, 1],
    ]);
    const [create, read] = await readGatewayCallSummaries({ since: new Date(minute(-5)) });
    expect(create).toMatchObject({ operation: "createPixCharge", calls: 1, p50Ms: 125 });
    expect(read).toMatchObject({ operation: "getPixCharge", calls: 101, failures: 2, clientErrors: 1 });
    expect(read?.errorRate).toBeCloseTo(2 / 101);
    expect(read?.p50Ms).toBeGreaterThan(10);
    expect(read?.p50Ms).toBeLessThanOrEqual(25);
    expect(read?.p99Ms).toBeGreaterThanOrEqual(2_500);

    const series = await readGatewayCallSeries({ since: new Date(minute(-5)), stepMinutes: 5 });
    expect(series).toHaveLength(1);
    expect(series[0]?.calls).toBe(102);
  });
});

describe("gateway call minutes and a closing database", () => {
  useAppDatabase("pglite");

  it("are written before the database closes", async () => {
    await db.gatewayCallMinute.deleteMany();
    recordGatewayCall("getPixCharge", "answered", 20, minute(0));
    await disconnectDb();
    expect(await db.gatewayCallMinute.count()).toBe(1);
  });
});
