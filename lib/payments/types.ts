import type { TPaymentCancellation } from "@/lib/gateway/schemas/payment";

// Spec 3.1 shows CON and CAN; NEG is the sandbox's name for a refusal (sandbox/README.md, "Card payments"). A real
// gateway may name a refusal differently, so refusals are recognised by `codigo`, never by this status alone.
export const cardPaymentStatuses = { APPROVED: "CON", CANCELLED: "CAN", REFUSED: "NEG" } as const;

// 2.2: any codigo other than "0" is a failure.
export const approvedResponseCode = "0";

/** 2.4's `valor` is the cancelled amount in cents as a string ("12345" is R$ 123,45), unlike every other amount. */
export function cancelledCentsOf(cancellation: Pick<TPaymentCancellation, "valor">): number {
  if (!/^\d+$/.test(cancellation.valor)) throw new RangeError(`Not cents: ${cancellation.valor}`);
  const cents = Number(cancellation.valor);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Cents out of range: ${cancellation.valor}`);
  return cents;
}
