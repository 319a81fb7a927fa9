// Pure types and constants, safe for client components. Money is integer cents; dates are ISO 8601 strings.

// Spec 3.4 (`Cancelada` is the one Portuguese value: compare exactly) and 3.5; an unknown status is shown as is.
export { pixChargeStatuses, type TPixChargeStatus } from "@/lib/gateway/schemas/pix-charge";
export { pixRefundStatusCodes } from "@/lib/gateway/schemas/pix-refund";

import type { pixRefundStatusCodes } from "@/lib/gateway/schemas/pix-refund";
export type TPixRefundStatusCode = (typeof pixRefundStatusCodes)[keyof typeof pixRefundStatusCodes];

// A charge that was paid, whatever was refunded of it since: what the overview counts as Pix received.
export const pixReceivedStatuses = ["PAID", "PARTIALLY REFUNDED", "REFUNDED"] as const;

// A charge accepts refunds only while under 90 days old (spec 8).
export const pixRefundWindowDays = 90;

export type TPixRefundView = {
  pixRefundId: string;
  // End-to-end id of the refund itself (spec 2.8), as the gateway returns it.
  refundEndToEnd: string | null;
  amountCents: number;
  statusCode: number;
  statusDescription: string;
  statusReason: string | null;
  description: string | null;
  createdAt: string;
  settledAt: string | null;
};

export type TPixChargeView = {
  txid: string;
  status: string;
  amountCents: number;
  createdAt: string;
  expiresAt: string;
  debtor: { name: string; document: string } | null;
  description: string | null;
  userReference: string | null;
  // The QR image is rendered from this text; null once the charge is no longer payable.
  pixCopyAndPaste: string | null;
  isPayable: boolean;
  payment: {
    paidAt: string | null;
    payerName: string | null;
    payerDocument: string | null;
    endToEndId: string;
    amountCents: number;
  } | null;
  refunds: TPixRefundView[];
  refundedCents: number;
  remainingRefundableCents: number;
  // Whole days left before the 90-day window closes; 0 when closed or never paid.
  refundWindowDaysLeft: number;
  // When the window closes (ISO 8601); null when the charge was never paid.
  refundWindowClosesAt: string | null;
  canRefund: boolean;
  canCancel: boolean;
  syncedAt: string;
};

export type TPixChargeListRow = {
  txid: string;
  status: string;
  amountCents: number;
  createdAt: string;
  expiresAt: string;
  debtorName: string | null;
  debtorDocument: string | null;
  description: string | null;
  userReference: string | null;
  refundedCents: number;
};

export type TPixRefundListRow = {
  pixRefundId: string;
  refundEndToEnd: string | null;
  txid: string;
  amountCents: number;
  statusCode: number;
  statusDescription: string;
  statusReason: string | null;
  description: string | null;
  createdAt: string;
  settledAt: string | null;
};

export type TRefreshPageResult = { page: number; totalPages: number; upserted: number };

export type TPixRefundPanel = Pick<
  TPixChargeView,
  | "txid"
  | "status"
  | "payment"
  | "refunds"
  | "refundedCents"
  | "remainingRefundableCents"
  | "refundWindowDaysLeft"
  | "refundWindowClosesAt"
  | "canRefund"
>;

export type TRefundApprovalView = {
  id: string;
  // PIX_REFUND and CARD_CANCEL: held by the money policy (reason chargeTotal or dailyLimit); PIX_REFUND_RECOVERY: an
  // earlier attempt may have reached the gateway (approve = send again, reject = mark as not sent).
  kind: "PIX_REFUND" | "CARD_CANCEL" | "PIX_REFUND_RECOVERY";
  reason: string | null;
  txid: string | null;
  paymentId: string | null;
  amountCents: number;
  description: string | null;
  requestedBy: { id: string; name: string; email: string };
  createdAt: string;
  // Null for an unsure refund: it waits for a decision.
  expiresAt: string | null;
  isExpired: boolean;
};
