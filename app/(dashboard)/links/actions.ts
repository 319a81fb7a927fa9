"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { cancelPaymentLink, createPaymentLink, refreshPaymentLinksFromGateway } from "@/lib/links/payment-links";
import { refundCancelledLinkPixPayment } from "@/lib/links/pix";
import {
  ZCancelPaymentLinkInput,
  ZCreatePaymentLinkInput,
  ZRefreshPaymentLinksInput,
  ZRefundLinkPixPaymentInput,
} from "@/lib/links/schemas";

export const createPaymentLinkAction = defineAction(
  { permission: "links.manage", schema: ZCreatePaymentLinkInput },
  async (input, { context }) => {
    const result = await createPaymentLink(input, context);
    revalidatePath("/links");
    return result;
  },
);

export const cancelPaymentLinkAction = defineAction(
  { permission: "links.manage", schema: ZCancelPaymentLinkInput },
  async ({ linkPaymentUuid }, { context }) => {
    const view = await cancelPaymentLink(linkPaymentUuid, context);
    revalidatePath("/links");
    revalidatePath(`/links/${linkPaymentUuid}`);
    return view;
  },
);

export const refundLinkPixPaymentAction = defineAction(
  { permission: "refunds.request", schema: ZRefundLinkPixPaymentInput },
  async (input, { context }) => {
    const result = await refundCancelledLinkPixPayment(input, context);
    revalidatePath(`/links/${input.linkPaymentUuid}`);
    revalidatePath("/refunds");
    return result;
  },
);

export const refreshPaymentLinksAction = defineAction(
  { permission: "payments.view", schema: ZRefreshPaymentLinksInput },
  async (period) => {
    const result = await refreshPaymentLinksFromGateway(period);
    revalidatePath("/links");
    return result;
  },
);
