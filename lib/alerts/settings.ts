import "server-only";
import { z } from "zod";
import { zodIssuesToFieldErrors } from "@/lib/actions/field-errors";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { alertRuleKeys, type TAlertRuleKey } from "./rule-keys";
import {
  alertRules,
  defaultThresholds,
  effectiveThresholds,
  findAlertRule,
  type TAlertThresholds,
  type TThresholdSpec,
  thresholdsSchema,
} from "./rules";

// "Until unmuted" is a mute that never runs out on its own.
export const foreverMutedUntil = new Date("9999-12-31T00:00:00Z");

export const ZAlertRuleKey = z.enum(alertRuleKeys);
export const ZMuteFor = z.enum(["1h", "24h", "forever", "off"]);
const muteMs = { "1h": 60 * 60_000, "24h": 24 * 60 * 60_000 } as const;

export type TAlertRuleView = {
  key: TAlertRuleKey;
  thresholds: TAlertThresholds;
  limits: Record<string, TThresholdSpec>;
  isDefault: boolean;
  mutedUntil: Date | null;
};

export async function listAlertRules(now = new Date()): Promise<TAlertRuleView[]> {
  const stored = new Map((await db.alertRuleSetting.findMany()).map((row) => [row.ruleKey, row]));
  return alertRules.map((rule) => {
    const row = stored.get(rule.key);
    const thresholds = effectiveThresholds(rule.key, row?.thresholds);
    const defaults = defaultThresholds(rule);
    return {
      key: rule.key,
      thresholds,
      limits: rule.thresholds,
      isDefault: Object.entries(defaults).every(([name, value]) => thresholds[name] === value),
      mutedUntil: row?.mutedUntil && row.mutedUntil > now ? row.mutedUntil : null,
    };
  });
}

function ruleOrNotFound(key: string) {
  const rule = findAlertRule(key);
  if (!rule) throw new AppError("NOT_FOUND", "errors.codes.NOT_FOUND");
  return rule;
}

async function saveRuleSetting(
  key: TAlertRuleKey,
  change: { thresholds?: TAlertThresholds; mutedUntil?: Date | null },
  action: "alerts.rule_changed" | "alerts.rule_muted",
  context: TChangeContext,
): Promise<void> {
  await inTransaction(async (tx) => {
    const before = await tx.alertRuleSetting.findUnique({ where: { ruleKey: key } });
    const thresholds = change.thresholds ?? effectiveThresholds(key, before?.thresholds);
    const mutedUntil = change.mutedUntil === undefined ? (before?.mutedUntil ?? null) : change.mutedUntil;
    const updatedById = context.actor?.id ?? null;
    await tx.alertRuleSetting.upsert({
      where: { ruleKey: key },
      create: { ruleKey: key, thresholds, mutedUntil, updatedById },
      update: { thresholds, mutedUntil, updatedById },
    });
    await recordAudit(
      {
        actor: context.actor,
        action,
        resourceType: "alert_rule",
        resourceId: key,
        ip: context.ip,
        userAgent: context.userAgent,
        metadata: {
          before: {
            thresholds: effectiveThresholds(key, before?.thresholds),
            mutedUntil: before?.mutedUntil?.toISOString() ?? null,
          },
          after: { thresholds, mutedUntil: mutedUntil?.toISOString() ?? null },
        },
      },
      tx,
    );
  });
}

/** Validated against the rule's limits; `null` puts the defaults back. */
export async function setAlertRuleThresholds(
  key: TAlertRuleKey,
  thresholds: Record<string, unknown> | null,
  context: TChangeContext,
): Promise<void> {
  const rule = ruleOrNotFound(key);
  if (thresholds === null) {
    await saveRuleSetting(key, { thresholds: defaultThresholds(rule) }, "alerts.rule_changed", context);
    return;
  }
  const parsed = thresholdsSchema(rule).safeParse(thresholds);
  if (!parsed.success) {
    throw new AppError("VALIDATION_FAILED", "errors.codes.VALIDATION_FAILED", {
      fieldErrors: zodIssuesToFieldErrors(parsed.error.issues),
    });
  }
  await saveRuleSetting(key, { thresholds: parsed.data as TAlertThresholds }, "alerts.rule_changed", context);
}

export async function muteAlertRule(
  key: TAlertRuleKey,
  muteFor: z.infer<typeof ZMuteFor>,
  context: TChangeContext,
  now = new Date(),
): Promise<void> {
  ruleOrNotFound(key);
  const mutedUntil =
    muteFor === "off" ? null : muteFor === "forever" ? foreverMutedUntil : new Date(now.getTime() + muteMs[muteFor]);
  await saveRuleSetting(key, { mutedUntil }, "alerts.rule_muted", context);
}
