import type { TPaymentCancellation } from "@/lib/gateway/schemas/payment";

// Spec 3.1 shows CON and CAN; NEG is the sandbox's name for a refusal (sandbox/README.md, "Card payments"). A real
// gateway may name a refusal differently, so refusals are recognised by `codigo` and `mensagem`
// (isCardPaymentApproved, lib/shared/card-approval.ts), never by this status alone.
export const cardPaymentStatuses = { APPROVED: "CON", CANCELLED: "CAN", REFUSED: "NEG" } as const;

/** 2.4's `valor` is the cancelled amount in cents as a string ("12345" is R$ 123,45), unlike every other amount. */
export function cancelledCentsOf(cancellation: Pick<TPaymentCancellation, "valor">): number {
  if (!/^\d+$/.test(cancellation.valor)) throw new RangeError(`Not cents: ${cancellation.valor}`);
  const cents = Number(cancellation.valor);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Cents out of range: ${cancellation.valor}`);
  return cents;
}

/** What the card payment list shows of a payment: a summary, never the receipts or raw answer. */
export type TCardPaymentListRow = {
  id: string;
  occurredAt: string;
  amountCents: number;
  cancelledCents: number;
  status: string;
  statusKind: "approved" | "cancelled" | "refused" | "unknown";
  paymentType: string | null;
  brandCode: string | null;
  cardLastFour: string | null;
  installmentCount: number;
  orderId: string | null;
  origin: "TERMINAL" | "LINK" | "POS" | "GATEWAY";
};

/** One step of a refresh from the gateway's list: `isDone` when the rest is older than the period or capped. */
export type TCardPaymentsRefreshStep = { page: number; totalPages: number; upserted: number; isDone: boolean };
