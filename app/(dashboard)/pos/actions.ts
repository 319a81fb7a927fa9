"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { recordAudit } from "@/lib/audit/audit-log";
import { removePosOverride, savePosConfig, savePosTenantConfig } from "@/lib/pos/admin-config";
import {
  ZCreatePosApiKeyInput,
  ZPosApiKeyIdInput,
  ZPosStatusInput,
  ZRemovePosOverrideInput,
  ZRotatePosApiKeyInput,
  ZRunPosMatchingInput,
  ZSavePosConfigInput,
  ZSavePosTenantConfigInput,
  ZSavePosTenantTerminalsInput,
  ZSellerTokenVerificationInput,
} from "@/lib/pos/admin-schemas";
import { setPosStatus } from "@/lib/pos/admin-sellers";
import { savePosTenantTerminals } from "@/lib/pos/admin-terminals";
import { createPosApiKey, revokePosApiKey, rotatePosApiKey, setSellerTokenVerification } from "@/lib/pos/api-keys";
import { runPosMatching } from "@/lib/pos/match";

// Every action is ADMIN only (defineAction checks the role before reading the input) and audited in lib/pos.

export const createPosApiKeyAction = defineAction(
  { permission: "pos.manage", schema: ZCreatePosApiKeyInput },
  async (input, { context }) => {
    const created = await createPosApiKey(input, context);
    revalidatePath("/pos/keys");
    return created;
  },
);

export const rotatePosApiKeyAction = defineAction(
  { permission: "pos.manage", schema: ZRotatePosApiKeyInput },
  async (input, { context }) => {
    const created = await rotatePosApiKey(input, context);
    revalidatePath("/pos/keys");
    return created;
  },
);

export const revokePosApiKeyAction = defineAction(
  { permission: "pos.manage", schema: ZPosApiKeyIdInput },
  async ({ keyId }, { context }) => {
    await revokePosApiKey(keyId, context);
    revalidatePath("/pos/keys");
  },
);

export const setSellerTokenVerificationAction = defineAction(
  { permission: "pos.manage", schema: ZSellerTokenVerificationInput },
  async (input, { context }) => {
    const result = await setSellerTokenVerification(input, context);
    revalidatePath("/pos/keys");
    return result;
  },
);

export const setPosStatusAction = defineAction(
  { permission: "pos.manage", schema: ZPosStatusInput },
  async (input, { context }) => {
    await setPosStatus(input, context);
    revalidatePath("/pos/sellers", "layout");
  },
);

export const savePosConfigAction = defineAction(
  { permission: "pos.manage", schema: ZSavePosConfigInput },
  async (input, { context }) => {
    await savePosConfig(input, context);
    revalidatePath(`/pos/sellers/${encodeURIComponent(input.sellerId)}`);
  },
);

export const savePosTenantConfigAction = defineAction(
  { permission: "pos.manage", schema: ZSavePosTenantConfigInput },
  async (input, { context }) => {
    await savePosTenantConfig(input, context);
    revalidatePath(`/pos/tenants/${input.tenantId}`);
    revalidatePath("/pos/sellers", "layout");
  },
);

export const savePosTenantTerminalsAction = defineAction(
  { permission: "pos.manage", schema: ZSavePosTenantTerminalsInput },
  async (input, { context }) => {
    const result = await savePosTenantTerminals(input, context);
    revalidatePath(`/pos/tenants/${input.tenantId}`);
    return result;
  },
);

export const removePosOverrideAction = defineAction(
  { permission: "pos.manage", schema: ZRemovePosOverrideInput },
  async ({ posId }, { context }) => {
    await removePosOverride(posId, context);
    revalidatePath("/pos/sellers", "layout");
  },
);

export const runPosMatchingAction = defineAction(
  { permission: "pos.manage", schema: ZRunPosMatchingInput },
  async (_input, { context }) => {
    await recordAudit({ ...context, action: "pos_matching.requested", resourceType: "pos_matching" });
    // An admin asks because the mirror just learnt payments: reports waiting out their back-off are read too.
    const result = await runPosMatching(new Date(), { ignoreBackoff: true });
    revalidatePath("/pos/sales");
    return result;
  },
);
