"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { cancelPixCharge, createPixCharge, refreshPixChargesPage } from "@/lib/pix/charges";
import { approveRefund, rejectRefund, submitPixRefund } from "@/lib/pix/refund-approvals";
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

export const createPixChargeAction = defineAction({ schema: ZCreatePixChargeInput }, async (input, { context }) => {
  const result = await createPixCharge(input, context);
  revalidatePath("/pix");
  return result;
});

export const cancelPixChargeAction = defineAction({ schema: ZCancelPixChargeInput }, async ({ txid }, { context }) => {
  const view = await cancelPixCharge(txid, context);
  revalidateCharge(txid);
  return view;
});

// One upstream page per call, so the page can show progress ("page 2 of 5") and loop.
export const refreshPixChargesPageAction = defineAction({ schema: ZRefreshPixChargesPageInput }, async (input) => {
  const result = await refreshPixChargesPage(input);
  if (result.page + 1 >= result.totalPages) revalidatePath("/pix");
  return result;
});

// Above the step-up threshold the refund goes through only with a valid code, else it waits for a second admin.
export const requestPixRefundAction = defineAction({ schema: ZSubmitPixRefundInput }, async (input, { context }) => {
  const result = await submitPixRefund(input, context);
  revalidateCharge(input.txid);
  revalidatePath(result.status === "pending" ? "/approvals" : "/refunds");
  return result;
});

// Admin only, and never the requester (checked in lib/pix/refund-approvals.ts).
export const approveRefundAction = defineAction(
  { schema: ZRefundApprovalDecisionInput, role: "ADMIN" },
  async ({ approvalId }, { user, context }) => {
    const result = await approveRefund(approvalId, user, context);
    revalidatePath("/approvals");
    revalidatePath("/refunds");
    revalidatePath("/pix", "layout");
    return result;
  },
);

export const rejectRefundAction = defineAction(
  { schema: ZRefundApprovalDecisionInput, role: "ADMIN" },
  async ({ approvalId }, { user, context }) => {
    await rejectRefund(approvalId, user, context);
    revalidatePath("/approvals");
    revalidatePath("/pix", "layout");
  },
);
