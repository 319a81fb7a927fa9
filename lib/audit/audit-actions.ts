// Dot-separated and past tense. Later issues add their money-moving actions here.
export const auditActions = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_in_rate_limited",
  "auth.sign_out",
  "user.created",
  "user.role_changed",
  "user.deactivated",
  "user.reactivated",
  "user.password_reset",
  "user.password_changed",
  "user.locale_changed",
  "pix_charge.created",
  "pix_charge.cancelled",
  "pix_refund.requested",
  "pix_refund.failed",
  "webhook.registered",
  "webhook.updated",
  "webhook.deactivated",
  "webhook.rotation_started",
  "webhook.retired",
  "webhook_delivery.replayed",
  "reconciliation.requested",
  "payment_link.created",
  "payment_link.cancelled",
] as const;

export type AuditAction = (typeof auditActions)[number];
