"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { submitCardPaymentCancel } from "@/lib/approvals/card-cancel-approvals";
import { refreshCardPayment } from "@/lib/card-payments/detail";
import { ZCancelCardPaymentInput, ZCardPaymentIdInput } from "@/lib/card-payments/schemas";

// ---- Card payment detail and cancel ----

// STAFF may cancel, as they may refund a Pix charge: the whole amount goes back to the card (no partial cancel).
export const cancelCardPaymentAction = defineAction(
  { permission: "cards.cancel", schema: ZCancelCardPaymentInput },
  async (input, { context }) => {
    // Held by the money policy, it answers `cancelHeldForApproval` and waits on the approvals page.
    const view = await submitCardPaymentCancel(input, context);
    revalidatePath("/payments");
    revalidatePath(`/payments/${input.paymentId}`);
    return { paymentId: view.id, status: view.status, cancelledCents: view.cancelledCents };
  },
);

export const refreshCardPaymentAction = defineAction(
  { permission: "payments.view", schema: ZCardPaymentIdInput },
  async ({ paymentId }) => {
    const view = await refreshCardPayment(paymentId);
    revalidatePath(`/payments/${paymentId}`);
    return { paymentId: view.id, status: view.status };
  },
);

// ---- end of card payment detail and cancel ----
