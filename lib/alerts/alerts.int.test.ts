import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getGatewayCertificateReport } from "@/lib/gateway/certificate";
import { flushGatewayCallMinutes, recordGatewayCall } from "@/lib/health/gateway-call-minutes";
import { useGateway } from "@/lib/testing/gateway-sandbox";
import { useAppDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import { testCertsDir } from "@/sandbox/test/harness";
import { evaluateAlerts } from "./evaluate";
import { countUnreadAlerts, listAlertIncidents, markAlertsSeen } from "./incidents";
import { listAlertRules, muteAlertRule, setAlertRuleThresholds } from "./settings";

const actor = { actor: { id: null, email: "admin@example.com" } };
const minuteMs = 60_000;

async function user(email: string, roleId: string, isActive = true) {
  return db.user.create({
    data: { email, name: email.split("@")[0]!, roleId, isActive, passwordHash: "x", locale: "en" },
  });
}

async function failGatewayCalls(count: number, operation = "createPixCharge") {
  for (let index = 0; index < count; index += 1) recordGatewayCall(operation, "failure", 40);
  await flushGatewayCallMinutes();
}

async function answerGatewayCalls(count: number, durationMs = 40, operation = "createPixCharge") {
  for (let index = 0; index < count; index += 1) recordGatewayCall(operation, "answered", durationMs);
  await flushGatewayCallMinutes();
}

const incidentsOf = (ruleKey: string) =>
  db.alertIncident.findMany({ where: { ruleKey }, orderBy: { openedAt: "asc" } });
const alertMails = () =>
  db.mailMessage.findMany({
    where: { template: "alertIncident" },
    select: { to: true, subject: true },
    orderBy: [{ createdAt: "asc" }, { to: "asc" }],
  });

describe.each<TTestBackend>(testBackends)("alerts (%s)", (backend) => {
  useAppDatabase(backend);

  // Approvals keep their requester: leave none behind for files of this worker that delete users first.
  afterAll(async () => {
    await db.refundApproval.deleteMany();
  });

  beforeEach(async () => {
    await db.alertIncident.deleteMany();
    await db.alertRuleSetting.deleteMany();
    await db.alertSeen.deleteMany();
    await db.gatewayCallMinute.deleteMany();
    await db.mailMessage.deleteMany();
    await db.auditLog.deleteMany();
    await db.webhookDelivery.deleteMany();
    await db.webhook.deleteMany();
    await db.mirrorDrift.deleteMany();
    await db.job.deleteMany();
    await db.cardPayment.deleteMany();
    await db.refundApproval.deleteMany();
    await db.user.deleteMany();
    await db.role.deleteMany({ where: { isBuiltIn: false } });
    await user("owner@example.com", "owner");
    await user("ops@example.com", "operations");
    await user("gone@example.com", "operations", false);
    await user("analyst@example.com", "analyst");
    await db.role.create({ data: { id: "on-call", name: "On call", permissions: ["alerts.receive"] } });
    await user("oncall@example.com", "on-call");
  });

  it("opens an incident once with one mail per receiver, stays quiet while open, and resolves with one mail", async () => {
    await failGatewayCalls(10);
    expect(await evaluateAlerts()).toMatchObject({ opened: 1, resolved: 0 });
    const [incident] = await incidentsOf("gatewayErrorRate");
    expect(incident).toMatchObject({ subject: "createPixCharge", lastValue: 100, resolvedAt: null });
    const receivers = ["oncall@example.com", "ops@example.com", "owner@example.com"];
    expect(await alertMails()).toEqual(receivers.map((to) => ({ to, subject: "Alert: Gateway error rate" })));

    await failGatewayCalls(5);
    expect(await evaluateAlerts()).toMatchObject({ opened: 0, resolved: 0, stillOpen: 1 });
    expect(await alertMails()).toHaveLength(3);

    await answerGatewayCalls(300);
    expect(await evaluateAlerts()).toMatchObject({ opened: 0, resolved: 0, stillOpen: 1 });
    expect(await evaluateAlerts()).toMatchObject({ opened: 0, resolved: 0, stillOpen: 1 });
    expect(await evaluateAlerts()).toMatchObject({ opened: 0, resolved: 1 });
    expect((await incidentsOf("gatewayErrorRate"))[0]!.resolvedAt).not.toBeNull();
    const mails = await alertMails();
    expect(mails.slice(3)).toEqual(receivers.map((to) => ({ to, subject: "Resolved: Gateway error rate" })));
    expect(await evaluateAlerts()).toMatchObject({ opened: 0, resolved: 0 });
    expect(await alertMails()).toHaveLength(6);
  });

  it("keeps one incident and one mail while the error rate hovers at the threshold", async () => {
    await setAlertRuleThresholds("gatewayErrorRate", { percent: 50, minutes: 5, minCalls: 10 }, actor);
    for (let round = 0; round < 4; round += 1) {
      await failGatewayCalls(10);
      await evaluateAlerts();
      await answerGatewayCalls(11);
      await evaluateAlerts();
    }
    expect(await incidentsOf("gatewayErrorRate")).toMatchObject([{ resolvedAt: null }]);
    expect((await alertMails()).map((mail) => mail.subject)).toEqual(Array(3).fill("Alert: Gateway error rate"));

    await answerGatewayCalls(100);
    for (let clear = 0; clear < 3; clear += 1) await evaluateAlerts();
    expect((await incidentsOf("gatewayErrorRate"))[0]!.resolvedAt).not.toBeNull();
    expect(await alertMails()).toHaveLength(6);
  });

  it("opens nothing for a muted rule, and audits the mute", async () => {
    await muteAlertRule("gatewayErrorRate", "1h", actor);
    await failGatewayCalls(20);
    expect(await evaluateAlerts()).toMatchObject({ opened: 0, mutedRules: 1 });
    expect(await incidentsOf("gatewayErrorRate")).toEqual([]);
    expect(await alertMails()).toEqual([]);
    expect((await listAlertRules()).find((rule) => rule.key === "gatewayErrorRate")?.mutedUntil).not.toBeNull();
    expect(await db.auditLog.count({ where: { action: "alerts.rule_muted", resourceId: "gatewayErrorRate" } })).toBe(1);

    await muteAlertRule("gatewayErrorRate", "off", actor);
    expect(await evaluateAlerts()).toMatchObject({ opened: 1 });
  });

  it("opens one incident and sends one set of mails when two evaluators run at once", async () => {
    await failGatewayCalls(10);
    const results = await Promise.all([evaluateAlerts(), evaluateAlerts(), evaluateAlerts()]);
    expect(results.reduce((sum, result) => sum + result.opened, 0)).toBe(1);
    expect(await incidentsOf("gatewayErrorRate")).toHaveLength(1);
    expect(await alertMails()).toHaveLength(3);
  });

  it("counts one clear evaluation when two evaluators run at once: the incident resolves no earlier than alone", async () => {
    await failGatewayCalls(10);
    await evaluateAlerts();
    await answerGatewayCalls(300);
    // One evaluation time, as two runners of one tick: whichever interleaving, it counts once.
    const now = new Date();
    await Promise.all([evaluateAlerts({ now }), evaluateAlerts({ now })]);
    expect(await incidentsOf("gatewayErrorRate")).toMatchObject([{ clearEvaluations: 1, resolvedAt: null }]);
    expect(await evaluateAlerts()).toMatchObject({ resolved: 0, stillOpen: 1 });
    expect(await evaluateAlerts()).toMatchObject({ resolved: 1 });
    expect(await alertMails()).toHaveLength(6);
  });

  it("validates and audits thresholds, and puts the defaults back", async () => {
    await expect(
      setAlertRuleThresholds("gatewayErrorRate", { percent: 0, minutes: 5, minCalls: 10 }, actor),
    ).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: { percent: "outOfRange" },
    });
    await setAlertRuleThresholds("gatewayErrorRate", { percent: 50, minutes: 1, minCalls: 3 }, actor);
    await failGatewayCalls(3);
    await answerGatewayCalls(4);
    expect(await evaluateAlerts()).toMatchObject({ opened: 0 });
    await failGatewayCalls(2);
    expect(await evaluateAlerts()).toMatchObject({ opened: 1 });
    expect(await db.auditLog.count({ where: { action: "alerts.rule_changed" } })).toBe(1);
    await setAlertRuleThresholds("gatewayErrorRate", null, actor);
    const rule = (await listAlertRules()).find((row) => row.key === "gatewayErrorRate");
    expect(rule).toMatchObject({ isDefault: true, thresholds: { percent: 5, minutes: 5, minCalls: 10 } });
  });

  it("counts what is unread per person", async () => {
    const ops = await db.user.findUniqueOrThrow({ where: { email: "ops@example.com" } });
    await failGatewayCalls(10);
    await evaluateAlerts();
    expect(await countUnreadAlerts(ops.id)).toBe(1);
    await markAlertsSeen(ops.id);
    expect(await countUnreadAlerts(ops.id)).toBe(0);
    const { open, resolved } = await listAlertIncidents();
    expect(open).toHaveLength(1);
    expect(resolved).toEqual([]);
  });

  it("does not count cancelled card payments as refusals", async () => {
    const now = new Date();
    const payment = (id: string, status: string, isApproved: boolean) => ({
      id,
      status,
      responseCode: isApproved ? "0" : "51",
      responseMessage: status,
      isApproved,
      amountCents: 1_000,
      occurredAt: new Date(now.getTime() - 5 * minuteMs),
      origin: "TERMINAL" as const,
      raw: {},
      syncedAt: now,
    });
    const cancelled = Array.from({ length: 6 }, (_, index) => payment(`cancelled-${index}`, "CAN", false));
    await db.cardPayment.createMany({ data: [...cancelled, payment("refused-0", "NEG", false)] });
    await evaluateAlerts({ now });
    expect(await incidentsOf("cardRefusals")).toEqual([]);

    await db.cardPayment.createMany({
      data: Array.from({ length: 4 }, (_, index) => payment(`refused-${index + 1}`, "NEG", false)),
    });
    await evaluateAlerts({ now });
    expect(await incidentsOf("cardRefusals")).toMatchObject([{ lastValue: 45.5, detail: { label: "5" } }]);
  });

  it("fires each rule on its condition", async () => {
    const now = new Date();
    await answerGatewayCalls(10, 4_000, "getPixCharge");

    const webhook = await db.webhook.create({
      data: { url: "https://dashboard.example.com/hook", events: ["pix_charge.paid"] },
    });
    for (let index = 0; index < 5; index += 1) {
      await db.webhookDelivery.create({
        data: {
          webhookId: webhook.id,
          pathId: webhook.id,
          headers: {},
          rawBody: Buffer.from("{}"),
          signatureValid: index > 1,
          outcome: index > 1 ? "FAILED" : "REJECTED_SIGNATURE",
          receivedAt: new Date(now.getTime() - index * 1_000),
        },
      });
    }

    for (let index = 0; index < 6; index += 1) {
      await db.cardPayment.create({
        data: {
          id: `refused-${index}`,
          status: "NEG",
          responseCode: "51",
          responseMessage: "Recusada",
          isApproved: false,
          amountCents: 1_000,
          occurredAt: new Date(now.getTime() - 5 * minuteMs),
          origin: "TERMINAL",
          raw: {},
          syncedAt: now,
        },
      });
    }
    await db.mirrorDrift.create({
      data: {
        resourceKind: "pix_charge",
        resourceId: "tx1",
        fields: ["status"],
        mirrorValue: {},
        gatewayValue: {},
        source: "reconcile",
      },
    });
    await db.job.create({ data: { name: "reconciliation", consecutiveFailures: 3 } });
    const requester = await db.user.findUniqueOrThrow({ where: { email: "ops@example.com" } });
    await db.refundApproval.create({
      data: {
        kind: "CARD_CANCEL",
        paymentId: "p1",
        amountCents: 500,
        idempotencyKey: crypto.randomUUID(),
        requestedById: requester.id,
        expiresAt: new Date(now.getTime() + 24 * 60 * minuteMs),
        createdAt: new Date(now.getTime() - 2 * 60 * minuteMs),
      },
    });

    await evaluateAlerts({ now });
    const fired = await db.alertIncident.findMany({ select: { ruleKey: true, subject: true, lastValue: true } });
    expect(fired).toEqual(
      expect.arrayContaining([
        { ruleKey: "gatewayLatency", subject: "getPixCharge", lastValue: expect.any(Number) },
        { ruleKey: "webhookFailing", subject: webhook.id, lastValue: 5 },
        { ruleKey: "cardRefusals", subject: "", lastValue: 100 },
        { ruleKey: "driftFound", subject: "", lastValue: 1 },
        { ruleKey: "jobFailing", subject: "reconciliation", lastValue: 3 },
        { ruleKey: "approvalWaiting", subject: "", lastValue: 1 },
      ]),
    );
    expect(fired.find((row) => row.ruleKey === "gatewayLatency")!.lastValue).toBeGreaterThan(2_500);

    await useGateway("https://127.0.0.1:9", testCertsDir);
    const report = getGatewayCertificateReport();
    if (!report.ok) throw new Error(report.problem);
    const nearExpiry = new Date(Date.parse(report.certificate.validTo) - 10 * 24 * 60 * minuteMs);
    await evaluateAlerts({ now: nearExpiry });
    const [certificate] = await incidentsOf("certificateExpiry");
    expect(certificate).toMatchObject({ subject: "", resolvedAt: null });
    expect(certificate!.lastValue).toBeLessThanOrEqual(10);
  });
});
