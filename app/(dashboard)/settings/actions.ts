"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { setAppSetting, ZDailyMoneyReturnLimitCents, ZTwoFactorRequirement } from "@/lib/settings/app-settings";
import { checkGatewayConnection } from "@/lib/settings/gateway-connection";
import { saveSsoSettings, ZSsoSettingsInput } from "@/lib/sso/settings";
import { setMoneySettingOrHold } from "@/lib/users/admin-changes";

// Admin only: a live authenticated GET to the gateway; answers OK with latency or what failed.
export const checkGatewayConnectionAction = defineAction({ permission: "settings.manage", schema: z.object({}) }, () =>
  checkGatewayConnection(),
);

// Admin only: who must set up two-factor sign-in before using the dashboard; audited as settings.changed.
export const setTwoFactorRequirementAction = defineAction(
  { permission: "settings.manage", schema: z.object({ requirement: ZTwoFactorRequirement }) },
  ({ requirement }, { context }) => setAppSetting("twoFactorRequirement", requirement, context),
);

// Admin only: above this many cents a Pix refund needs a fresh code or a second admin; audited as settings.changed.
// Raising it or turning it off answers `pending`: it waits for a second admin (lib/users/admin-changes.ts).
// Admin only: what one person may send back to payers in a São Paulo day before a second admin approves
// (lib/approvals/money-policy.ts); raising it or turning it off waits for a second admin, like the threshold.
export const setDailyMoneyReturnLimitAction = defineAction(
  { permission: "settings.manage", schema: z.object({ limitCents: ZDailyMoneyReturnLimitCents }) },
  async ({ limitCents }, { context }) => {
    const result = await setMoneySettingOrHold("dailyMoneyReturnLimitCents", limitCents, context);
    revalidatePath("/settings");
    return result;
  },
);

// Admin only: single sign-on (docs/sso.md); mapped roles stay within the admin's own grant; audited, secret redacted.
export const saveSsoSettingsAction = defineAction(
  { permission: "settings.manage", schema: ZSsoSettingsInput },
  async (input, { context }) => {
    const saved = await saveSsoSettings(input, context);
    revalidatePath("/settings");
    return { hasClientSecret: saved.hasClientSecret };
  },
);
