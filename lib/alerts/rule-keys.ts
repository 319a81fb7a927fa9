// No server-only imports: the mail templates and the client components name rules too.
export const alertRuleKeys = [
  "gatewayErrorRate",
  "gatewayLatency",
  "webhookFailing",
  "certificateExpiry",
  "cardRefusals",
  "driftFound",
  "jobFailing",
  "approvalWaiting",
] as const;

export type TAlertRuleKey = (typeof alertRuleKeys)[number];

export type TAlertSummaryParams = {
  value: number;
  threshold: number;
  label: string;
  minutes: number;
  baseline: number;
};
