"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { getRequestContext } from "@/lib/auth/request-context";
import type { CurrentUser } from "@/lib/auth/session";
import {
  checkWebhookSignature,
  deactivateWebhook,
  registerWebhook,
  startSecretRotation,
  updateWebhook,
} from "@/lib/webhooks/admin";
import {
  ZRegisterWebhookInput,
  ZSignatureCheckInput,
  ZStartRotationInput,
  ZUpdateWebhookInput,
  ZWebhookIdInput,
} from "@/lib/webhooks/admin-schemas";
import { replayDelivery } from "@/lib/webhooks/replay";

async function changeContext(user: CurrentUser) {
  return { actor: { id: user.id, email: user.email }, ...(await getRequestContext()) };
}

export const registerWebhookAction = defineAction(
  { schema: ZRegisterWebhookInput, role: "ADMIN" },
  async (input, user) => {
    const result = await registerWebhook(input, await changeContext(user));
    revalidatePath("/webhooks");
    return result;
  },
);

export const updateWebhookAction = defineAction(
  { schema: ZUpdateWebhookInput, role: "ADMIN" },
  async ({ webhookId, ...input }, user) => {
    await updateWebhook(webhookId, input, await changeContext(user));
    revalidatePath("/webhooks");
  },
);

export const deactivateWebhookAction = defineAction(
  { schema: ZWebhookIdInput, role: "ADMIN" },
  async ({ webhookId }, user) => {
    await deactivateWebhook(webhookId, await changeContext(user));
    revalidatePath("/webhooks");
  },
);

export const startSecretRotationAction = defineAction(
  { schema: ZStartRotationInput, role: "ADMIN" },
  async ({ webhookId, ...input }, user) => {
    const result = await startSecretRotation(webhookId, input, await changeContext(user));
    revalidatePath("/webhooks");
    return result;
  },
);

export const replayDeliveryAction = defineAction(
  { schema: z.object({ id: z.uuid() }), role: "ADMIN" },
  async ({ id }, user) => {
    const result = await replayDelivery(id, user, await getRequestContext());
    revalidatePath("/webhooks/deliveries");
    return result;
  },
);

// Admin only: with a stored secret it tells whether any body matches a signature.
export const checkSignatureAction = defineAction({ schema: ZSignatureCheckInput, role: "ADMIN" }, (input) =>
  checkWebhookSignature(input),
);
