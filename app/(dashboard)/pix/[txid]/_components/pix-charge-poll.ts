import type { TPixChargeView } from "@/lib/pix/types";

const awaitingPaymentStatuses = new Set(["CREATED", "ACTIVE"]);
// Spec 3.5: 1 CREATED and 2 PROCESSING are the refund states that may still settle or fail.
const unsettledRefundStatusCodes = new Set([1, 2]);
/** The gateway sends no webhook for a failed refund: an unsettled one is read upstream this often. */
export const refundPollIntervalMs = 5_000;

export function hasUnsettledRefund(charge: Pick<TPixChargeView, "refunds"> | undefined): boolean {
  return charge?.refunds.some((refund) => unsettledRefundStatusCodes.has(refund.statusCode)) ?? false;
}

/**
 * How often the charge page reads its charge: briskly while it awaits payment, every few seconds (from the
 * gateway) while a refund is unsettled, so a refused one frees its amount at once; not at all otherwise.
 */
export function pixChargePollIntervalMs(
  charge: Pick<TPixChargeView, "status" | "refunds"> | undefined,
  paymentPollIntervalMs: number,
): number | false {
  if (!charge) return false;
  if (awaitingPaymentStatuses.has(charge.status)) return paymentPollIntervalMs;
  if (hasUnsettledRefund(charge)) return refundPollIntervalMs;
  return false;
}
