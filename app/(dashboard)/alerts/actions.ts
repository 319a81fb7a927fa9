"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { markAlertsSeen } from "@/lib/alerts/incidents";
import { muteAlertRule, setAlertRuleThresholds, ZAlertRuleKey, ZMuteFor } from "@/lib/alerts/settings";

export const markAlertsSeenAction = defineAction(
  { permission: "health.view", schema: z.strictObject({ seenAt: z.iso.datetime() }) },
  async ({ seenAt }, { user }) => {
    // Never later than now: a skewed browser clock must not hide what opens next.
    await markAlertsSeen(user.id, new Date(Math.min(Date.parse(seenAt), Date.now())));
  },
);

// The thresholds' limits are per rule: setAlertRuleThresholds checks them and answers per field.
export const saveAlertRuleAction = defineAction(
  {
    permission: "alerts.manage",
    schema: z.strictObject({ key: ZAlertRuleKey, thresholds: z.record(z.string().max(40), z.unknown()).nullable() }),
  },
  async ({ key, thresholds }, { context }) => {
    await setAlertRuleThresholds(key, thresholds, context);
    revalidatePath("/alerts/rules");
  },
);

export const muteAlertRuleAction = defineAction(
  { permission: "alerts.manage", schema: z.strictObject({ key: ZAlertRuleKey, muteFor: ZMuteFor }) },
  async ({ key, muteFor }, { context }) => {
    await muteAlertRule(key, muteFor, context);
    revalidatePath("/alerts/rules");
  },
);
