import "server-only";
import { serverEnv } from "@/lib/config/server-env";
import { db } from "@/lib/db/client";
import type { TPosCaller } from "./authenticate";
import { PosApiError, posError } from "./errors";
import type { TTransactionConfig } from "./schemas";
import { openTokenRegistroTls } from "./secrets";

// GET /v1/transactions/config: the seller's configuration row merged with the PDV's override (an override's null
// field falls back to the seller's). Unset text fields are "" and branding has defaults (docs/pos.md).

export const defaultPosBranding = { primaryColor: "#0f172a", secondaryColor: "#f8fafc" } as const;
export const defaultPosLogoPath = "/icon.svg";

type TConfigRow = {
  empresaGateway: string | null;
  enderecoGateway: string | null;
  cnpjCpf: string | null;
  comExterna: string | null;
  tokenRegistroTlsCiphertext: string | null;
  cnpjAutomacao: string | null;
  cnpjFacilitador: string | null;
  logoUrl: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
};

const configSelect = {
  empresaGateway: true,
  enderecoGateway: true,
  cnpjCpf: true,
  comExterna: true,
  tokenRegistroTlsCiphertext: true,
  cnpjAutomacao: true,
  cnpjFacilitador: true,
  logoUrl: true,
  primaryColor: true,
  secondaryColor: true,
} as const;

export const posNotFound = () => new PosApiError(404, "unknown_pos", "unknown posId");

function decryptTls(override: TConfigRow | null, sellerRow: TConfigRow | null, posId: string, sellerId: string) {
  try {
    if (override?.tokenRegistroTlsCiphertext)
      return openTokenRegistroTls(override.tokenRegistroTlsCiphertext, { posId });
    if (sellerRow?.tokenRegistroTlsCiphertext)
      return openTokenRegistroTls(sellerRow.tokenRegistroTlsCiphertext, { sellerId });
  } catch {
    throw new PosApiError(500, "tls_token_unreadable", "internal error");
  }
  return "";
}

export function mergeTransactionConfig(
  sellerRow: TConfigRow | null,
  override: TConfigRow | null,
  tokenRegistroTls: string,
  appUrl: string,
): TTransactionConfig {
  const pick = (field: Exclude<keyof TConfigRow, "tokenRegistroTlsCiphertext">) =>
    override?.[field] ?? sellerRow?.[field] ?? null;
  return {
    empresaGateway: pick("empresaGateway") ?? "",
    enderecoGateway: pick("enderecoGateway") ?? "",
    cnpjCpf: pick("cnpjCpf") ?? "",
    comExterna: pick("comExterna") ?? "",
    tokenRegistroTls,
    cnpjAutomacao: pick("cnpjAutomacao") ?? "",
    cnpjFacilitador: pick("cnpjFacilitador") ?? "",
    branding: {
      logoUrl: pick("logoUrl") ?? new URL(defaultPosLogoPath, appUrl).toString(),
      primaryColor: pick("primaryColor") ?? defaultPosBranding.primaryColor,
      secondaryColor: pick("secondaryColor") ?? defaultPosBranding.secondaryColor,
    },
  };
}

export async function resolveTransactionConfig(
  caller: TPosCaller,
  posId: string,
  now = new Date(),
): Promise<TTransactionConfig> {
  const device = await db.posDevice.findUnique({
    where: { posId },
    select: {
      tenantId: true,
      status: true,
      sellerId: true,
      config: { select: configSelect },
      seller: { select: { status: true, config: { select: configSelect } } },
    },
  });
  // Another tenant's PDV is as unknown as a PDV that does not exist.
  if (!device || device.tenantId !== caller.tenantId) throw posNotFound();
  if (device.status === "BLOCKED") throw posError.business("pos_blocked", "PDV blocked");
  if (device.seller.status === "BLOCKED") throw posError.business("seller_blocked", "seller blocked");
  const tokenRegistroTls = decryptTls(device.config, device.seller.config, posId, device.sellerId);
  await db.posDevice.update({ where: { posId }, data: { lastConfigAt: now }, select: { posId: true } });
  return mergeTransactionConfig(device.seller.config, device.config, tokenRegistroTls, serverEnv.APP_URL);
}
