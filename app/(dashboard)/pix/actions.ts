"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { approveMoneyApproval, rejectMoneyApproval } from "@/lib/approvals/approvals";
import { cancelPixCharge, createPixCharge, refreshPixChargesPage } from "@/lib/pix/charges";
import { submitPixRefund } from "@/lib/pix/refund-approvals";
import {
  ZCancelPixChargeInput,
  ZCreatePixChargeInput,
  ZRefreshPixChargesPageInput,
  ZRefundApprovalDecisionInput,
  ZSubmitPixRefundInput,
} from "@/lib/pix/schemas";

function revalidateCharge(txid: string) {
  revalidatePath("/pix");
  revalidatePath(`/pix/${txid}`);
}

export const createPixChargeAction = defineAction(
  { permission: "pix.charge", schema: ZCreatePixChargeInput },
  async (input, { context }) => {
    const result = await createPixCharge(input, context);
    revalidatePath("/pix");
    return result;
  },
);

export const cancelPixChargeAction = defineAction(
  { permission: "pix.charge", schema: ZCancelPixChargeInput },
  async ({ txid }, { context }) => {
    const view = await cancelPixCharge(txid, context);
    revalidateCharge(txid);
    return view;
  },
);

// One upstream page per call, so the page can show progress ("page 2 of 5") and loop.
export const refreshPixChargesPageAction = defineAction(
  { permission: "payments.view", schema: ZRefreshPixChargesPageInput },
  async (input) => {
    const result = await refreshPixChargesPage(input);
    if (result.page + 1 >= result.totalPages) revalidatePath("/pix");
    return result;
  },
);

// Above the step-up threshold the refund goes through only with a valid code, else it waits for a second admin.
export const requestPixRefundAction = defineAction(
  { permission: "refunds.request", schema: ZSubmitPixRefundInput },
  async (input, { context }) => {
    const result = await submitPixRefund(input, context);
    revalidateCharge(input.txid);
    revalidatePath(result.status === "pending" ? "/approvals" : "/refunds");
    return result;
  },
);

// Admin only, and never the requester of money held by the policy (checked in lib/approvals/decision.ts). For a
// refund held as unsure this is "send again"; for a card cancel it cancels the payment.
export const approveRefundAction = defineAction(
  {
    permission: "refunds.approve",
    schema: ZRefundApprovalDecisionInput.extend({ code: z.string().max(32).optional() }),
  },
  async ({ approvalId, code }, { user, context }) => {
    const result = await approveMoneyApproval(approvalId, user, context, code);
    revalidatePath("/approvals");
    revalidatePath("/refunds");
    revalidatePath("/pix", "layout");
    if (result.paymentId) revalidatePath(`/payments/${result.paymentId}`);
    return result;
  },
);

export const rejectRefundAction = defineAction(
  { permission: "refunds.approve", schema: ZRefundApprovalDecisionInput },
  async ({ approvalId }, { user, context }) => {
    // For a refund held as unsure this is "mark as not sent".
    await rejectMoneyApproval(approvalId, user, context);
    revalidatePath("/approvals");
    revalidatePath("/pix", "layout");
  },
);
