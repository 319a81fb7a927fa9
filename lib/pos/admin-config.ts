import "server-only";
import type { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { PosTransactionConfig } from "@/lib/generated/prisma/client";
import type { ZSavePosConfigInput } from "./admin-schemas";
import { sealTokenRegistroTls } from "./secrets";

// Transaction configuration (contract 2.3) as the admin edits it: one row per seller and optional per-PDV override
// rows whose null fields fall back to the seller's. tokenRegistroTls is sealed (lib/pos/secrets.ts, bound to its
// owner row); the screens only learn whether one is set.

export const posConfigFieldNames = [
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

export function toPosConfigView(row: PosTransactionConfig | null | undefined): TPosConfigView {
  if (!row) return emptyPosConfigView;
  const view = {
    ...emptyPosConfigView,
    hasTokenRegistroTls: Boolean(row.tokenRegistroTlsCiphertext),
    updatedAt: row.updatedAt,
  };
  for (const name of posConfigFieldNames) view[name] = row[name];
  return view;
}

/** What a PDV gets: each field from its override when set there, else from the seller's row. */
export function resolvePosConfig(seller: TPosConfigView, override: TPosConfigView | null): TPosConfigView {
  if (!override) return seller;
  const view = { ...seller, hasTokenRegistroTls: override.hasTokenRegistroTls || seller.hasTokenRegistroTls };
  for (const name of posConfigFieldNames) view[name] = override[name] ?? seller[name];
  return view;
}

export type TPosSellerConfigs = { seller: TPosConfigView; overrides: Record<string, TPosConfigView> };

export async function getPosConfigsForAdmin(sellerId: string): Promise<TPosSellerConfigs> {
  const [sellerRow, overrideRows] = await Promise.all([
    db.posTransactionConfig.findUnique({ where: { sellerId } }),
    db.posTransactionConfig.findMany({ where: { device: { sellerId } } }),
  ]);
  return {
    seller: toPosConfigView(sellerRow),
    overrides: Object.fromEntries(overrideRows.map((row) => [row.posId!, toPosConfigView(row)])),
  };
}

/** Saves the seller's configuration, or with `posId` that PDV's override. Audited with the changed field names. */
export async function savePosConfig(
  input: z.output<typeof ZSavePosConfigInput>,
  context: TChangeContext,
): Promise<void> {
  const { sellerId, posId, tokenRegistroTls, ...fields } = input;
  await inTransaction(async (tx) => {
    const seller = await tx.posSeller.findUnique({ where: { id: sellerId }, select: { id: true } });
    if (!seller) throw new AppError("NOT_FOUND", "This seller does not exist.");
    if (posId) {
      const device = await tx.posDevice.findUnique({ where: { posId }, select: { sellerId: true } });
      if (device?.sellerId !== sellerId) throw new AppError("NOT_FOUND", "This PDV does not exist.");
    }
    const owner = posId ? { sellerId: null, posId } : { sellerId, posId: null };
    const where = posId ? { posId } : { sellerId };
    const before = await tx.posTransactionConfig.findUnique({ where });

    let tokenData: { tokenRegistroTlsCiphertext?: string | null } = {};
    if (tokenRegistroTls.action === "replace")
      tokenData = {
        tokenRegistroTlsCiphertext: sealTokenRegistroTls(tokenRegistroTls.value, posId ? { posId } : { sellerId }),
      };
    else if (tokenRegistroTls.action === "clear") tokenData = { tokenRegistroTlsCiphertext: null };

    const data = { ...fields, ...tokenData, updatedById: context.actor?.id ?? null };
    await tx.posTransactionConfig.upsert({ where, create: { ...owner, ...data }, update: data });

    const changed = posConfigFieldNames.filter((name) => (before?.[name] ?? null) !== fields[name]);
    await recordAudit(
      {
        ...auditFieldsOf(context, posId ? "pos_device" : "pos_seller", posId ?? sellerId),
        action: "pos_config.updated",
        metadata: {
          sellerId,
          posId: posId ?? null,
          changed,
          // Only the kind of change: the token itself never reaches the audit log.
          tokenRegistroTls: tokenRegistroTls.action,
        },
      },
      tx,
    );
  });
}

/** Removes a PDV's override: the PDV uses the seller's configuration again. */
export async function removePosOverride(posId: string, context: TChangeContext): Promise<void> {
  await inTransaction(async (tx) => {
    const removed = await tx.posTransactionConfig.deleteMany({ where: { posId } });
    if (removed.count === 0) throw new AppError("NOT_FOUND", "This PDV has no override.");
    await recordAudit(
      { ...auditFieldsOf(context, "pos_device", posId), action: "pos_config.override_removed", metadata: { posId } },
      tx,
    );
  });
}
