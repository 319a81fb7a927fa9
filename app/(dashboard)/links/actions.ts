"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { getRequestContext } from "@/lib/auth/request-context";
import type { CurrentUser } from "@/lib/auth/session";
import { cancelPaymentLink, createPaymentLink, refreshPaymentLinksFromGateway } from "@/lib/links/payment-links";
import { ZCancelPaymentLinkInput, ZCreatePaymentLinkInput, ZRefreshPaymentLinksInput } from "@/lib/links/schemas";

async function changeContext(user: CurrentUser) {
  return { actor: { id: user.id, email: user.email }, ...(await getRequestContext()) };
}

export const createPaymentLinkAction = defineAction({ schema: ZCreatePaymentLinkInput }, async (input, user) => {
  const result = await createPaymentLink(input, await changeContext(user));
  revalidatePath("/links");
  return result;
});

export const cancelPaymentLinkAction = defineAction(
  { schema: ZCancelPaymentLinkInput },
  async ({ linkPaymentUuid }, user) => {
    const view = await cancelPaymentLink(linkPaymentUuid, await changeContext(user));
    revalidatePath("/links");
    revalidatePath(`/links/${linkPaymentUuid}`);
    return view;
  },
);

export const refreshPaymentLinksAction = defineAction({ schema: ZRefreshPaymentLinksInput }, async (period) => {
  const result = await refreshPaymentLinksFromGateway(period);
  revalidatePath("/links");
  return result;
});
