"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { setAppSetting, ZRefundApprovalThresholdCents, ZTwoFactorRequirement } from "@/lib/settings/app-settings";
import { checkGatewayConnection } from "@/lib/settings/gateway-connection";

// Admin only: a live authenticated GET to the gateway; answers OK with latency or what failed.
export const checkGatewayConnectionAction = defineAction({ schema: z.object({}), role: "ADMIN" }, () =>
  checkGatewayConnection(),
);

// Admin only: who must set up two-factor sign-in before using the dashboard; audited as settings.changed.
export const setTwoFactorRequirementAction = defineAction(
  { schema: z.object({ requirement: ZTwoFactorRequirement }), role: "ADMIN" },
  ({ requirement }, { context }) => setAppSetting("twoFactorRequirement", requirement, context),
);

// Admin only: above this many cents a Pix refund needs a fresh code or a second admin; audited as settings.changed.
export const setRefundApprovalThresholdAction = defineAction(
  { schema: z.object({ thresholdCents: ZRefundApprovalThresholdCents }), role: "ADMIN" },
  ({ thresholdCents }, { context }) => setAppSetting("refundApprovalThresholdCents", thresholdCents, context),
);
