import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { getGatewayCertificateReport } from "@/lib/gateway/certificate";
import { readCardRefusals } from "@/lib/health/card-refusals";
import { readGatewayCallSummaries } from "@/lib/health/gateway-call-minutes";
import type { TAlertRuleKey } from "./rule-keys";

// What a rule shows and mails: `value` against `threshold`, and the label of its subject (catalog alerts.summary).
type TAlertDetail = { threshold: number; label: string; minutes?: number; baseline?: number };
export type TAlertFinding = { subject: string; value: number; detail: TAlertDetail };

type TThresholdUnit = "percent" | "ms" | "minutes" | "count" | "days" | "times";
export type TThresholdSpec = { min: number; max: number; defaultValue: number; unit: TThresholdUnit };

type TAlertRule<TName extends string> = {
  key: TAlertRuleKey;
  thresholds: Record<TName, TThresholdSpec>;
  // Clear evaluations in a row before an open incident resolves: a value hovering at the threshold stays one incident.
  quietEvaluations: number;
  // Only the subjects that fire; an open incident whose subject is missing resolves.
  evaluate: (thresholds: Record<TName, number>, now: Date) => Promise<TAlertFinding[]>;
};

const defineRule = <TName extends string>(rule: TAlertRule<TName>) => rule;

const spec = (defaultValue: number, min: number, max: number, unit: TThresholdUnit): TThresholdSpec => ({
  defaultValue,
  min,
  max,
  unit,
});

const minuteMs = 60_000;
const overallSubject = "*";
const failedDeliveryOutcomes = ["FAILED", "REJECTED_SIGNATURE"] as const;
const percentOf = (part: number, total: number) => (total === 0 ? 0 : Math.round((part / total) * 1000) / 10);

async function gatewayWindow(minutes: number, now: Date) {
  const summaries = await readGatewayCallSummaries({ since: new Date(now.getTime() - minutes * minuteMs) });
  const calls = summaries.reduce((sum, row) => sum + row.calls, 0);
  const failures = summaries.reduce((sum, row) => sum + row.failures, 0);
  return {
    summaries,
    overall: { operation: overallSubject, calls, failures, errorRate: calls ? failures / calls : 0 },
  };
}

export const alertRules = [
  defineRule({
    key: "gatewayErrorRate",
    quietEvaluations: 3,
    thresholds: {
      percent: spec(5, 1, 100, "percent"),
      minutes: spec(5, 1, 60, "minutes"),
      minCalls: spec(10, 1, 100_000, "count"),
    },
    evaluate: async ({ percent, minutes, minCalls }, now) => {
      const { summaries, overall } = await gatewayWindow(minutes, now);
      const isFiring = (row: { calls: number; errorRate: number }) =>
        row.calls >= minCalls && row.errorRate * 100 > percent;
      // Overall only when no operation fires by itself: one outage is one incident, not one plus a total.
      const firing = summaries.filter(isFiring);
      return (firing.length > 0 ? firing : [overall].filter(isFiring)).map((row) => ({
        subject: row.operation,
        value: percentOf(row.failures, row.calls),
        detail: { threshold: percent, minutes, label: row.operation },
      }));
    },
  }),
  defineRule({
    key: "gatewayLatency",
    quietEvaluations: 3,
    thresholds: {
      p99Ms: spec(2_500, 10, 60_000, "ms"),
      minutes: spec(5, 1, 60, "minutes"),
      minCalls: spec(10, 1, 100_000, "count"),
    },
    evaluate: async ({ p99Ms, minutes, minCalls }, now) => {
      const { summaries } = await gatewayWindow(minutes, now);
      return summaries
        .filter((row) => row.calls >= minCalls && (row.p99Ms ?? 0) > p99Ms)
        .map((row) => ({
          subject: row.operation,
          value: row.p99Ms ?? 0,
          detail: { threshold: p99Ms, minutes, label: row.operation },
        }));
    },
  }),
  defineRule({
    key: "webhookFailing",
    quietEvaluations: 2,
    thresholds: { inARow: spec(5, 1, 1_000, "count") },
    evaluate: async ({ inARow }) => {
      const webhooks = await db.webhook.findMany({ where: { isActive: true }, select: { id: true, url: true } });
      const findings: TAlertFinding[] = [];
      for (const webhook of webhooks) {
        const latest = await db.webhookDelivery.findMany({
          where: { webhookId: webhook.id, outcome: { notIn: ["PENDING", "DUPLICATE"] } },
          orderBy: { receivedAt: "desc" },
          take: inARow,
          select: { outcome: true },
        });
        const isFailing =
          latest.length === inARow &&
          latest.every((row) => (failedDeliveryOutcomes as readonly string[]).includes(row.outcome));
        if (isFailing) {
          findings.push({ subject: webhook.id, value: inARow, detail: { threshold: inARow, label: webhook.url } });
        }
      }
      return findings;
    },
  }),
  defineRule({
    key: "certificateExpiry",
    quietEvaluations: 1,
    thresholds: { days: spec(30, 1, 365, "days") },
    evaluate: async ({ days }, now) => {
      const report = getGatewayCertificateReport(now);
      if (!report.ok || report.certificate.daysUntilExpiry >= days) return [];
      const left = Math.max(0, report.certificate.daysUntilExpiry);
      return [{ subject: "", value: left, detail: { threshold: days, label: report.certificate.subject } }];
    },
  }),
  defineRule({
    key: "cardRefusals",
    quietEvaluations: 3,
    thresholds: { factor: spec(2, 2, 100, "times"), minRefusals: spec(5, 1, 10_000, "count") },
    evaluate: async ({ factor, minRefusals }, now) => {
      const hourAgo = new Date(now.getTime() - 60 * minuteMs);
      const weekBefore = new Date(hourAgo.getTime() - 7 * 24 * 60 * minuteMs);
      const { attempts: recent, refused: recentRefused } = await readCardRefusals({ since: hourAgo, until: now });
      const { attempts: usual, refused: usualRefused } = await readCardRefusals({ since: weekBefore, until: hourAgo });
      const rate = percentOf(recentRefused, recent);
      const baseline = percentOf(usualRefused, usual);
      // With no usual rate to compare with, the minimum count alone decides.
      if (recentRefused < minRefusals || (usual > 0 && rate <= baseline * factor)) return [];
      return [{ subject: "", value: rate, detail: { threshold: factor, baseline, label: String(recentRefused) } }];
    },
  }),
  defineRule({
    key: "driftFound",
    quietEvaluations: 1,
    thresholds: { minItems: spec(1, 1, 10_000, "count") },
    evaluate: async ({ minItems }) => {
      const unhealed = await db.mirrorDrift.count({ where: { healedAt: null } });
      return unhealed >= minItems ? [{ subject: "", value: unhealed, detail: { threshold: minItems, label: "" } }] : [];
    },
  }),
  defineRule({
    key: "jobFailing",
    quietEvaluations: 2,
    thresholds: { inARow: spec(3, 1, 100, "count") },
    evaluate: async ({ inARow }) => {
      const jobs = await db.job.findMany({
        where: { consecutiveFailures: { gte: inARow } },
        select: { name: true, consecutiveFailures: true },
      });
      return jobs.map((job) => ({
        subject: job.name,
        value: job.consecutiveFailures,
        detail: { threshold: inARow, label: job.name },
      }));
    },
  }),
  defineRule({
    key: "approvalWaiting",
    quietEvaluations: 1,
    thresholds: { minutes: spec(60, 1, 10_080, "minutes") },
    evaluate: async ({ minutes }, now) => {
      const waiting = await db.refundApproval.count({
        where: {
          status: "PENDING",
          expiresAt: { gt: now },
          createdAt: { lte: new Date(now.getTime() - minutes * minuteMs) },
        },
      });
      return waiting > 0 ? [{ subject: "", value: waiting, detail: { threshold: minutes, label: "" } }] : [];
    },
  }),
];

export type TAlertThresholds = Record<string, number>;
type TAnyAlertRule = {
  key: TAlertRuleKey;
  thresholds: Record<string, TThresholdSpec>;
  quietEvaluations: number;
  evaluate: (thresholds: TAlertThresholds, now: Date) => Promise<TAlertFinding[]>;
};

export function findAlertRule(key: string): TAnyAlertRule | undefined {
  // Each rule's evaluate reads exactly the names of its own thresholds, which thresholdsSchema guarantees.
  return alertRules.find((rule) => rule.key === key) as TAnyAlertRule | undefined;
}

export function defaultThresholds(rule: Pick<TAnyAlertRule, "thresholds">): TAlertThresholds {
  return Object.fromEntries(Object.entries(rule.thresholds).map(([name, limits]) => [name, limits.defaultValue]));
}

// Messages are keys of alerts.errors in the catalogs.
export function thresholdsSchema(rule: Pick<TAnyAlertRule, "thresholds">) {
  return z.strictObject(
    Object.fromEntries(
      Object.entries(rule.thresholds).map(([name, limits]) => [
        name,
        z.number({ error: "outOfRange" }).int("outOfRange").min(limits.min, "outOfRange").max(limits.max, "outOfRange"),
      ]),
    ),
  );
}

// Stored overrides over the defaults; overrides the schema no longer accepts fall back to the defaults.
export function effectiveThresholds(key: string, stored: unknown): TAlertThresholds {
  const rule = findAlertRule(key);
  if (!rule) return {};
  const defaults = defaultThresholds(rule);
  const overrides = typeof stored === "object" && stored !== null ? stored : {};
  const picked = Object.fromEntries(Object.entries(overrides).filter(([name]) => name in defaults));
  const parsed = thresholdsSchema(rule).safeParse({ ...defaults, ...picked });
  return parsed.success ? (parsed.data as TAlertThresholds) : defaults;
}

export async function evaluateRule(key: string, thresholds: TAlertThresholds, now: Date): Promise<TAlertFinding[]> {
  const rule = findAlertRule(key);
  return rule ? rule.evaluate(thresholds, now) : [];
}
