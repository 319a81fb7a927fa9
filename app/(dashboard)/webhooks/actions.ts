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
  { permission: "webhooks.manage", schema: ZRegisterWebhookInput },
  async (input, { context }) => {
    const result = await registerWebhook(input, context);
    revalidatePath("/webhooks");
    return result;
  },
);

export const updateWebhookAction = defineAction(
  { permission: "webhooks.manage", schema: ZUpdateWebhookInput },
  async ({ webhookId, ...input }, { context }) => {
    await updateWebhook(webhookId, input, context);
    revalidatePath("/webhooks");
  },
);

export const deactivateWebhookAction = defineAction(
  { permission: "webhooks.manage", schema: ZWebhookIdInput },
  async ({ webhookId }, { context }) => {
    await deactivateWebhook(webhookId, context);
    revalidatePath("/webhooks");
  },
);

export const startSecretRotationAction = defineAction(
  { permission: "webhooks.manage", schema: ZStartRotationInput },
  async ({ webhookId, ...input }, { context }) => {
    const result = await startSecretRotation(webhookId, input, context);
    revalidatePath("/webhooks");
    return result;
  },
);

export const replayDeliveryAction = defineAction(
  { permission: "webhooks.manage", schema: z.object({ id: z.uuid() }) },
  async ({ id }, { user, context }) => {
    const result = await replayDelivery(id, user, context);
    revalidatePath("/webhooks/deliveries");
    return result;
  },
);

// Admin only: with a stored secret it tells whether any body matches a signature.
export const checkSignatureAction = defineAction(
  { permission: "webhooks.manage", schema: ZSignatureCheckInput },
  (input) => checkWebhookSignature(input),
);
