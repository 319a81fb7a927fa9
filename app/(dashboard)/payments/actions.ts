"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { cancelCardPayment } from "@/lib/payments/cancel";
import { refreshCardPayment } from "@/lib/payments/detail";
import { ZCancelCardPaymentInput, ZCardPaymentIdInput } from "@/lib/payments/schemas";

// ---- Card payment detail and cancel ----

// STAFF may cancel, as they may refund a Pix charge: the whole amount goes back to the card (no partial cancel).
export const cancelCardPaymentAction = defineAction({ schema: ZCancelCardPaymentInput }, async (input, { context }) => {
  const view = await cancelCardPayment(input, context);
  revalidatePath("/payments");
  revalidatePath(`/payments/${input.paymentId}`);
  return { paymentId: view.id, status: view.status, cancelledCents: view.cancelledCents };
});

export const refreshCardPaymentAction = defineAction({ schema: ZCardPaymentIdInput }, async ({ paymentId }) => {
  const view = await refreshCardPayment(paymentId);
  revalidatePath(`/payments/${paymentId}`);
  return { paymentId: view.id, status: view.status };
});

// ---- end of card payment detail and cancel ----
