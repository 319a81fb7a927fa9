import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { publishChange } from "@/lib/events/bus";
import type { Prisma } from "@/lib/generated/prisma/client";
import { flushGatewayCallMinutes } from "@/lib/health/gateway-call-minutes";
import { log } from "@/lib/log";
import { mailAlertIncident } from "./mail";
import { alertRules, effectiveThresholds, evaluateRule, type TAlertFinding } from "./rules";

export type TAlertEvaluationResult = { opened: number; resolved: number; stillOpen: number; mutedRules: number };

// Opening, counting a clear evaluation and resolving are each decided by one statement (the partial unique index, a
// compare-and-set of the count): of two evaluators at once, exactly one opens or resolves, and only that one mails.
async function openIncident(ruleKey: string, finding: TAlertFinding, now: Date): Promise<string | null> {
  const at = now.toISOString();
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "AlertIncident" ("id", "ruleKey", "subject", "openedAt", "lastValue", "detail", "lastEvaluatedAt")
    VALUES (${randomUUID()}::uuid, ${ruleKey}, ${finding.subject}, (${at}::timestamptz AT TIME ZONE 'UTC'),
            ${finding.value}::float8, ${JSON.stringify(finding.detail)}::jsonb, (${at}::timestamptz AT TIME ZONE 'UTC'))
    ON CONFLICT ("ruleKey", "subject") WHERE "resolvedAt" IS NULL DO NOTHING
    RETURNING "id"`;
  return rows[0]?.id ?? null;
}

export async function evaluateAlerts({ now = new Date() }: { now?: Date } = {}): Promise<TAlertEvaluationResult> {
  await flushGatewayCallMinutes();
  const settings = new Map((await db.alertRuleSetting.findMany()).map((row) => [row.ruleKey, row]));
  const result: TAlertEvaluationResult = { opened: 0, resolved: 0, stillOpen: 0, mutedRules: 0 };
  for (const rule of alertRules) {
    const setting = settings.get(rule.key);
    if (setting?.mutedUntil && setting.mutedUntil > now) {
      result.mutedRules += 1;
      continue;
    }
    let findings: TAlertFinding[];
    try {
      findings = await evaluateRule(rule.key, effectiveThresholds(rule.key, setting?.thresholds), now);
    } catch (error) {
      // One rule that cannot read its source must not silence the others, nor resolve its own incidents.
      log.error({ err: error, rule: rule.key }, "alerts: evaluating a rule failed");
      continue;
    }
    const open = await db.alertIncident.findMany({ where: { ruleKey: rule.key, resolvedAt: null } });
    const firing = new Map(findings.map((finding) => [finding.subject, finding]));
    for (const incident of open) {
      const finding = firing.get(incident.subject);
      if (finding) {
        result.stillOpen += 1;
        await db.alertIncident.update({
          where: { id: incident.id },
          data: {
            lastValue: finding.value,
            detail: finding.detail as Prisma.InputJsonObject,
            lastEvaluatedAt: now,
            clearEvaluations: 0,
          },
        });
        firing.delete(incident.subject);
        continue;
      }
      const isQuietEnough = incident.clearEvaluations + 1 >= rule.quietEvaluations;
      // From the count this evaluator read, once per evaluation time: of two at once, one counts (and resolves).
      const counted = await db.alertIncident.updateMany({
        where: {
          id: incident.id,
          resolvedAt: null,
          clearEvaluations: incident.clearEvaluations,
          lastEvaluatedAt: { lt: now },
        },
        data: {
          clearEvaluations: incident.clearEvaluations + 1,
          lastEvaluatedAt: now,
          ...(isQuietEnough ? { resolvedAt: now } : {}),
        },
      });
      if (!isQuietEnough) {
        result.stillOpen += 1;
      } else if (counted.count === 1) {
        result.resolved += 1;
        await publishChange({ kind: "alert_incident", id: incident.id });
        await mailAlertIncident({ ...incident, resolvedAt: now });
      }
    }
    for (const finding of firing.values()) {
      const id = await openIncident(rule.key, finding, now);
      if (!id) continue;
      result.opened += 1;
      await publishChange({ kind: "alert_incident", id });
      await mailAlertIncident({
        id,
        ruleKey: rule.key,
        subject: finding.subject,
        openedAt: now,
        resolvedAt: null,
        lastValue: finding.value,
        detail: finding.detail,
      });
    }
  }
  if (result.opened + result.resolved > 0) log.info({ alerts: result }, "alerts: incidents changed");
  return result;
}
