import "server-only";
import type { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction, type TTransactionClient } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { PosTransactionConfig } from "@/lib/generated/prisma/client";
import type { ZPosConfigFields, ZSavePosConfigInput, ZSavePosTenantConfigInput } from "./admin-schemas";
import { sealTokenRegistroTls } from "./secrets";

// tokenRegistroTls is sealed to its row (lib/pos/secrets.ts); screens only learn whether it is set.

const posConfigFieldNames = [
  "empresaGateway",
  "enderecoGateway",
  "cnpjCpf",
  "comExterna",
  "cnpjAutomacao",
  "cnpjFacilitador",
  "logoUrl",
  "primaryColor",
  "secondaryColor",
] as const;
export type TPosConfigFieldName = (typeof posConfigFieldNames)[number];

export type TPosConfigView = Record<TPosConfigFieldName, string | null> & {
  hasTokenRegistroTls: boolean;
  updatedAt: Date | null;
};

export const emptyPosConfigView: TPosConfigView = {
  empresaGateway: null,
  enderecoGateway: null,
  cnpjCpf: null,
  comExterna: null,
  cnpjAutomacao: null,
  cnpjFacilitador: null,
  logoUrl: null,
  primaryColor: null,
  secondaryColor: null,
  hasTokenRegistroTls: false,
  updatedAt: null,
};

function toPosConfigView(row: PosTransactionConfig | null | undefined): TPosConfigView {
  if (!row) return emptyPosConfigView;
  const view = {
    ...emptyPosConfigView,
    hasTokenRegistroTls: Boolean(row.tokenRegistroTlsCiphertext),
    updatedAt: row.updatedAt,
  };
  for (const name of posConfigFieldNames) view[name] = row[name];
  return view;
}

/** Each field from the first of `layers` (most specific first) that sets it. */
export function resolvePosConfig(...layers: (TPosConfigView | null | undefined)[]): TPosConfigView {
  const present = layers.filter((layer): layer is TPosConfigView => Boolean(layer));
  const view = {
    ...emptyPosConfigView,
    ...present[0],
    hasTokenRegistroTls: present.some((l) => l.hasTokenRegistroTls),
  };
  for (const name of posConfigFieldNames) view[name] = present.find((layer) => layer[name] !== null)?.[name] ?? null;
  return view;
}

export type TPosSellerConfigs = {
  tenantId: string | null;
  tenant: TPosConfigView;
  seller: TPosConfigView;
  overrides: Record<string, TPosConfigView>;
};

export async function getPosConfigsForAdmin(sellerId: string): Promise<TPosSellerConfigs> {
  const [seller, sellerRow, overrideRows] = await Promise.all([
    db.posSeller.findUnique({ where: { id: sellerId }, select: { tenantId: true } }),
    db.posTransactionConfig.findUnique({ where: { sellerId } }),
    db.posTransactionConfig.findMany({ where: { device: { sellerId } } }),
  ]);
  const tenantRow = seller ? await db.posTransactionConfig.findUnique({ where: { tenantId: seller.tenantId } }) : null;
  return {
    tenantId: seller?.tenantId ?? null,
    tenant: toPosConfigView(tenantRow),
    seller: toPosConfigView(sellerRow),
    overrides: Object.fromEntries(overrideRows.map((row) => [row.posId!, toPosConfigView(row)])),
  };
}

export async function getPosTenantConfigForAdmin(tenantId: string): Promise<TPosConfigView | null> {
  const [key, row] = await Promise.all([
    db.posApiKey.findFirst({ where: { tenantId }, select: { id: true } }),
    db.posTransactionConfig.findUnique({ where: { tenantId } }),
  ]);
  return key ? toPosConfigView(row) : null;
}

type TConfigOwner = { tenantId: string } | { sellerId: string } | { posId: string };

async function writeConfigRow(
  tx: TTransactionClient,
  owner: TConfigOwner,
  input: z.output<typeof ZPosConfigFields>,
  context: TChangeContext,
  audit: { resourceType: string; resourceId: string; metadata: Record<string, string | null> },
): Promise<void> {
  const { tokenRegistroTls, ...fields } = input;
  const before = await tx.posTransactionConfig.findUnique({ where: owner });
  let tokenData: { tokenRegistroTlsCiphertext?: string | null } = {};
  if (tokenRegistroTls.action === "replace")
    tokenData = { tokenRegistroTlsCiphertext: sealTokenRegistroTls(tokenRegistroTls.value, owner) };
  else if (tokenRegistroTls.action === "clear") tokenData = { tokenRegistroTlsCiphertext: null };

  const data = { ...fields, ...tokenData, updatedById: context.actor?.id ?? null };
  const create = { tenantId: null, sellerId: null, posId: null, ...owner, ...data };
  await tx.posTransactionConfig.upsert({ where: owner, create, update: data });

  const changed = posConfigFieldNames.filter((name) => (before?.[name] ?? null) !== fields[name]);
  await recordAudit(
    {
      ...auditFieldsOf(context, audit.resourceType, audit.resourceId),
      action: "pos_config.updated",
      // Only the kind of change: the token itself never reaches the audit log.
      metadata: { ...audit.metadata, changed, tokenRegistroTls: tokenRegistroTls.action },
    },
    tx,
  );
}

export async function savePosConfig(
  input: z.output<typeof ZSavePosConfigInput>,
  context: TChangeContext,
): Promise<void> {
  const { sellerId, posId, ...fields } = input;
  await inTransaction(async (tx) => {
    const seller = await tx.posSeller.findUnique({ where: { id: sellerId }, select: { id: true } });
    if (!seller) throw new AppError("NOT_FOUND", "pos.errors.sellerNotFound");
    if (posId) {
      const device = await tx.posDevice.findUnique({ where: { posId }, select: { sellerId: true } });
      if (device?.sellerId !== sellerId) throw new AppError("NOT_FOUND", "pos.errors.posNotFound");
    }
    await writeConfigRow(tx, posId ? { posId } : { sellerId }, fields, context, {
      resourceType: posId ? "pos_device" : "pos_seller",
      resourceId: posId ?? sellerId,
      metadata: { sellerId, posId: posId ?? null },
    });
  });
}

export async function savePosTenantConfig(
  input: z.output<typeof ZSavePosTenantConfigInput>,
  context: TChangeContext,
): Promise<void> {
  const { tenantId, ...fields } = input;
  await inTransaction(async (tx) => {
    const key = await tx.posApiKey.findFirst({ where: { tenantId }, select: { id: true } });
    if (!key) throw new AppError("NOT_FOUND", "pos.errors.invalidTenant");
    await writeConfigRow(tx, { tenantId }, fields, context, {
      resourceType: "pos_tenant",
      resourceId: tenantId,
      metadata: { tenantId },
    });
  });
}

export async function removePosOverride(posId: string, context: TChangeContext): Promise<void> {
  await inTransaction(async (tx) => {
    const removed = await tx.posTransactionConfig.deleteMany({ where: { posId } });
    if (removed.count === 0) throw new AppError("NOT_FOUND", "pos.errors.noOverride");
    await recordAudit(
      { ...auditFieldsOf(context, "pos_device", posId), action: "pos_config.override_removed", metadata: { posId } },
      tx,
    );
  });
}
