import "server-only";
import type { PixCharge, PixRefund } from "@/lib/generated/prisma/client";
import { failedRefundStatusCodes } from "./status";
import { pixRefundWindowDays, type TPixChargeView, type TPixRefundListRow, type TPixRefundView } from "./types";

const dayMs = 24 * 60 * 60 * 1000;
const refundableStatuses = ["PAID", "PARTIALLY REFUNDED"];
const paidStatuses = [...refundableStatuses, "REFUNDED"];

type TPixRefundViewFields = Pick<
  PixRefund,
  | "pixRefundId"
  | "refundEndToEnd"
  | "amountCents"
  | "statusCode"
  | "statusDescription"
  | "statusReason"
  | "description"
  | "creationDate"
  | "settlementDate"
>;

function toPixRefundView(refund: TPixRefundViewFields): TPixRefundView {
  return {
    pixRefundId: refund.pixRefundId,
    refundEndToEnd: refund.refundEndToEnd,
    amountCents: refund.amountCents,
    statusCode: refund.statusCode,
    statusDescription: refund.statusDescription,
    statusReason: refund.statusReason,
    description: refund.description,
    createdAt: refund.creationDate.toISOString(),
    settledAt: refund.settlementDate?.toISOString() ?? null,
  };
}

export function toPixRefundListRow(refund: TPixRefundViewFields & Pick<PixRefund, "txid">): TPixRefundListRow {
  return { ...toPixRefundView(refund), txid: refund.txid };
}

// Spec 2.7/8: refunds are accepted while the charge is under 90 days old, counted from its creation.
export function refundWindowDaysLeft(charge: Pick<PixCharge, "creationDate" | "status">, now: Date): number {
  const closesAt = refundWindowClosesAt(charge);
  if (!closesAt) return 0;
  return Math.max(0, Math.ceil((closesAt.getTime() - now.getTime()) / dayMs));
}

function refundWindowClosesAt(charge: Pick<PixCharge, "creationDate" | "status">): Date | null {
  if (!paidStatuses.includes(charge.status)) return null;
  return new Date(charge.creationDate.getTime() + pixRefundWindowDays * dayMs);
}

// Every refund that has not failed: a pending one holds its amount.
export function refundedCentsOf(refunds: Pick<PixRefund, "amountCents" | "statusCode">[]): number {
  return refunds
    .filter((refund) => !failedRefundStatusCodes.includes(refund.statusCode))
    .reduce((sum, refund) => sum + refund.amountCents, 0);
}

export function remainingRefundableCents(
  charge: Pick<PixCharge, "status" | "paidAmountCents" | "amountCents">,
  refunds: Pick<PixRefund, "amountCents" | "statusCode">[],
): number {
  if (!paidStatuses.includes(charge.status)) return 0;
  return Math.max(0, (charge.paidAmountCents ?? charge.amountCents) - refundedCentsOf(refunds));
}

export function toPixChargeView(charge: PixCharge & { refunds: PixRefund[] }, now: Date): TPixChargeView {
  const isOpen = charge.status === "ACTIVE" || charge.status === "CREATED";
  const isPayable = charge.status === "ACTIVE" && charge.expiresAt > now;
  const remaining = remainingRefundableCents(charge, charge.refunds);
  const daysLeft = refundWindowDaysLeft(charge, now);
  const debtorDocument = charge.debtorCpf ?? charge.debtorCnpj;
  return {
    txid: charge.txid,
    status: charge.status,
    amountCents: charge.amountCents,
    createdAt: charge.creationDate.toISOString(),
    expiresAt: charge.expiresAt.toISOString(),
    debtor: charge.debtorName && debtorDocument ? { name: charge.debtorName, document: debtorDocument } : null,
    description: charge.description,
    userReference: charge.userReference,
    pixCopyAndPaste: isPayable ? charge.pixCopyAndPaste : null,
    isPayable,
    payment: charge.endToEndId
      ? {
          paidAt: charge.paidAt?.toISOString() ?? null,
          payerName: charge.payerName,
          payerDocument: charge.payerDocument,
          endToEndId: charge.endToEndId,
          amountCents: charge.paidAmountCents ?? charge.amountCents,
        }
      : null,
    refunds: charge.refunds.map(toPixRefundView),
    refundedCents: charge.refundedCents,
    remainingRefundableCents: remaining,
    refundWindowDaysLeft: daysLeft,
    refundWindowClosesAt: refundWindowClosesAt(charge)?.toISOString() ?? null,
    canRefund: refundableStatuses.includes(charge.status) && remaining > 0 && daysLeft > 0,
    canCancel: isOpen && charge.expiresAt > now,
    syncedAt: charge.syncedAt.toISOString(),
  };
}
