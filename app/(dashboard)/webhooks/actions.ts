"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import {
  checkWebhookSignature,
  deactivateWebhook,
  registerWebhook,
  startSecretRotation,
  updateWebhook,
} from "@/lib/webhooks/admin";
import { replayDelivery } from "@/lib/webhooks/replay";
import {
  ZRegisterWebhookInput,
  ZSignatureCheckInput,
  ZStartRotationInput,
  ZUpdateWebhookInput,
  ZWebhookIdInput,
} from "@/lib/webhooks/schemas";

export const registerWebhookAction = defineAction(
  { schema: ZRegisterWebhookInput, role: "ADMIN" },
  async (input, { context }) => {
    const result = await registerWebhook(input, context);
    revalidatePath("/webhooks");
    return result;
  },
);

export const updateWebhookAction = defineAction(
  { schema: ZUpdateWebhookInput, role: "ADMIN" },
  async ({ webhookId, ...input }, { context }) => {
    await updateWebhook(webhookId, input, context);
    revalidatePath("/webhooks");
  },
);

export const deactivateWebhookAction = defineAction(
  { schema: ZWebhookIdInput, role: "ADMIN" },
  async ({ webhookId }, { context }) => {
    await deactivateWebhook(webhookId, context);
    revalidatePath("/webhooks");
  },
);

export const startSecretRotationAction = defineAction(
  { schema: ZStartRotationInput, role: "ADMIN" },
  async ({ webhookId, ...input }, { context }) => {
    const result = await startSecretRotation(webhookId, input, context);
    revalidatePath("/webhooks");
    return result;
  },
);

export const replayDeliveryAction = defineAction(
  { schema: z.object({ id: z.uuid() }), role: "ADMIN" },
  async ({ id }, { user, context }) => {
    const result = await replayDelivery(id, user, context);
    revalidatePath("/webhooks/deliveries");
    return result;
  },
);

// Admin only: with a stored secret it tells whether any body matches a signature.
export const checkSignatureAction = defineAction({ schema: ZSignatureCheckInput, role: "ADMIN" }, (input) =>
  checkWebhookSignature(input),
);
