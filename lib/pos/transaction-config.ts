import "server-only";
import { serverEnv } from "@/lib/config/server-env";
import { runSql } from "@/lib/db/sql";
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

const configColumns = [
  "empresaGateway",
  "enderecoGateway",
  "cnpjCpf",
  "comExterna",
  "tokenRegistroTlsCiphertext",
  "cnpjAutomacao",
  "cnpjFacilitador",
  "logoUrl",
  "primaryColor",
  "secondaryColor",
] as const satisfies readonly (keyof TConfigRow)[];

// `lastConfigAt` is written at most once a minute per PDV (as the key's lastUsedAt): a write per fetch would make
// every call wait for a durable commit.
const lastConfigResolutionMs = 60_000;

type TDeviceConfigRow = {
  tenantId: string;
  status: string;
  sellerId: string;
  sellerStatus: string;
  isLastConfigStale: boolean;
} & { [K in `seller_${(typeof configColumns)[number]}` | `pos_${(typeof configColumns)[number]}`]: string | null };

// Raw SQL (lib/db/sql.ts): every PDV calls it, one read for the PDV, its seller and both configuration rows.
const deviceConfigQuery = `
  SELECT d."tenantId"::text AS "tenantId", d."status"::text AS "status", d."sellerId", s."status"::text AS "sellerStatus",
    (d."lastConfigAt" IS NULL OR d."lastConfigAt" < ($2::timestamptz AT TIME ZONE 'UTC')) AS "isLastConfigStale",
    ${configColumns.map((column) => `sc."${column}" AS "seller_${column}", pc."${column}" AS "pos_${column}"`).join(", ")}
  FROM "PosDevice" d
  JOIN "PosSeller" s ON s."id" = d."sellerId"
  LEFT JOIN "PosTransactionConfig" sc ON sc."sellerId" = d."sellerId"
  LEFT JOIN "PosTransactionConfig" pc ON pc."posId" = d."posId"
  WHERE d."posId" = $1::text`;

function configRow(row: TDeviceConfigRow, side: "seller" | "pos"): TConfigRow {
  return Object.fromEntries(configColumns.map((column) => [column, row[`${side}_${column}`]])) as TConfigRow;
}

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
  const staleBefore = new Date(now.getTime() - lastConfigResolutionMs).toISOString();
  const [device] = await runSql<TDeviceConfigRow>(deviceConfigQuery, [posId, staleBefore]);
  // Another tenant's PDV is as unknown as a PDV that does not exist.
  if (!device || device.tenantId !== caller.tenantId) throw posNotFound();
  if (device.status === "BLOCKED") throw posError.business("pos_blocked", "PDV blocked");
  if (device.sellerStatus === "BLOCKED") throw posError.business("seller_blocked", "seller blocked");
  // A LEFT JOIN that found no row gives all-null columns: the same as no configuration row.
  const sellerRow = configRow(device, "seller");
  const override = configRow(device, "pos");
  const tokenRegistroTls = decryptTls(override, sellerRow, posId, device.sellerId);
  if (device.isLastConfigStale) {
    // The WHERE keeps parallel fetches and other instances from writing it again within the minute.
    await runSql(
      `UPDATE "PosDevice" SET "lastConfigAt" = ($2::timestamptz AT TIME ZONE 'UTC')
       WHERE "posId" = $1::text AND ("lastConfigAt" IS NULL OR "lastConfigAt" < ($3::timestamptz AT TIME ZONE 'UTC'))
       RETURNING 1 AS "touched"`,
      [posId, now.toISOString(), staleBefore],
    );
  }
  return mergeTransactionConfig(sellerRow, override, tokenRegistroTls, serverEnv.APP_URL);
}
