import type { TPaymentCancellation } from "@/lib/gateway/schemas/payment";

// NEG is the sandbox's refusal (spec 3.1 shows CON, CAN): refusals are told by `codigo` and `mensagem`, never this status.
export const cardPaymentStatuses = { APPROVED: "CON", CANCELLED: "CAN", REFUSED: "NEG" } as const;

/** 2.4's `valor` is the cancelled amount in cents as a string ("12345" is R$ 123,45), unlike every other amount. */
export function cancelledCentsOf(cancellation: Pick<TPaymentCancellation, "valor">): number {
  if (!/^\d+$/.test(cancellation.valor)) throw new RangeError(`Not cents: ${cancellation.valor}`);
  const cents = Number(cancellation.valor);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Cents out of range: ${cancellation.valor}`);
  return cents;
}

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

export type TCardPaymentsRefreshStep = { page: number; totalPages: number; upserted: number; isDone: boolean };
