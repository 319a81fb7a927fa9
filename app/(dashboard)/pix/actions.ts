"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { cancelPixCharge, createPixCharge, refreshPixChargesPage } from "@/lib/pix/charges";
import { requestPixRefund } from "@/lib/pix/refunds";
import {
  ZCancelPixChargeInput,
  ZCreatePixChargeInput,
  ZRefreshPixChargesPageInput,
  ZRequestPixRefundInput,
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

export const requestPixRefundAction = defineAction({ schema: ZRequestPixRefundInput }, async (input, { context }) => {
  const result = await requestPixRefund(input, context);
  revalidateCharge(input.txid);
  revalidatePath("/refunds");
  return result;
});
