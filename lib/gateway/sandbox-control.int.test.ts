import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { flushGatewayCallMinutes } from "@/lib/health/gateway-call-minutes";
import { getMetricsRegistry } from "@/lib/telemetry/metrics";
import { useSuiteGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { getPixCharge } from "./pix-charges";
import { listSandboxDeliveryAttempts, payPixChargeAtSandbox, setSandboxClock } from "./sandbox-control";

async function tallies() {
  await flushGatewayCallMinutes();
  const minutes = await db.gatewayCallMinute.findMany({ select: { operation: true, calls: true } });
  const metrics = await getMetricsRegistry().getMetricsAsJSON();
  const samples = (name: string) =>
    metrics.find((metric) => metric.name === name)?.values.reduce((sum, value) => sum + value.value, 0) ?? 0;
  return {
    minutes,
    calls: samples("payments_gateway_call_duration_seconds"),
    errors: samples("payments_gateway_errors_total"),
  };
}

describe("sandbox control calls", () => {
  useSuiteGatewaySandbox();

  beforeEach(async () => {
    await flushGatewayCallMinutes();
    await db.gatewayCallMinute.deleteMany();
  });

  it("leave the gateway call tallies and metrics untouched", async () => {
    const before = await tallies();
    await setSandboxClock(null);
    await listSandboxDeliveryAttempts();
    await expect(
      payPixChargeAtSandbox("does-not-exist", { payerName: "Fulana", payerDocumentNumber: "52998224725" }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await tallies()).toEqual(before);

    await expect(getPixCharge("does-not-exist")).rejects.toMatchObject({ status: 404 });
    const after = await tallies();
    expect(after.minutes).toEqual([{ operation: "pix-charges.get", calls: 1 }]);
    expect(after.errors).toBeGreaterThan(before.errors);
    expect(after.calls).toBeGreaterThan(before.calls);
  });
});
