import "server-only";
import { serverEnv } from "@/lib/config/server-env";
import { runSql } from "@/lib/db/sql";
import { requiredTransactionConfigFields } from "@/lib/pos-sdk/schemas";
import { normalizeHostPort } from "./admin-schemas";
import type { TPosCaller } from "./authenticate";
import { PosApiError, posError } from "./errors";
import type { TTransactionConfig } from "./schemas";
import { openTokenRegistroTls } from "./secrets";

// A text field set nowhere is a 422 "not configured", never a 200 with "" (docs/pos.md).

const defaultPosBranding = { primaryColor: "#0f172a", secondaryColor: "#f8fafc" } as const;
const defaultPosLogoPath = "/icon.svg";

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

// `lastConfigAt` is written at most once a minute per PDV: a write per fetch would wait for a durable commit.
const lastConfigResolutionMs = 60_000;

type TDeviceConfigRow = {
  tenantId: string;
  status: string;
  sellerId: string;
  sellerStatus: string;
  isLastConfigStale: boolean;
} & {
  [K in `${TConfigSide}_${(typeof configColumns)[number]}`]: string | null;
};

type TConfigSide = "tenant" | "seller" | "pos";

const deviceConfigQuery = `
  SELECT d."tenantId"::text AS "tenantId", d."status"::text AS "status", d."sellerId", s."status"::text AS "sellerStatus",
    (d."lastConfigAt" IS NULL OR d."lastConfigAt" < ($2::timestamptz AT TIME ZONE 'UTC')) AS "isLastConfigStale",
    ${configColumns
      .map(
        (column) =>
          `tc."${column}" AS "tenant_${column}", sc."${column}" AS "seller_${column}", pc."${column}" AS "pos_${column}"`,
      )
      .join(", ")}
  FROM "PosDevice" d
  JOIN "PosSeller" s ON s."id" = d."sellerId"
  LEFT JOIN "PosTransactionConfig" tc ON tc."tenantId" = d."tenantId"
  LEFT JOIN "PosTransactionConfig" sc ON sc."sellerId" = d."sellerId"
  LEFT JOIN "PosTransactionConfig" pc ON pc."posId" = d."posId"
  WHERE d."posId" = $1::text`;

function configRow(row: TDeviceConfigRow, side: TConfigSide): TConfigRow {
  return Object.fromEntries(configColumns.map((column) => [column, row[`${side}_${column}`]])) as TConfigRow;
}

export const posNotFound = () => new PosApiError(404, "unknown_pos", "unknown posId");

type TConfigLayers = { pos: TConfigRow; seller: TConfigRow; tenant: TConfigRow };

function decryptTls(layers: TConfigLayers, owners: { posId: string; sellerId: string; tenantId: string }): string {
  try {
    if (layers.pos.tokenRegistroTlsCiphertext)
      return openTokenRegistroTls(layers.pos.tokenRegistroTlsCiphertext, { posId: owners.posId });
    if (layers.seller.tokenRegistroTlsCiphertext)
      return openTokenRegistroTls(layers.seller.tokenRegistroTlsCiphertext, { sellerId: owners.sellerId });
    if (layers.tenant.tokenRegistroTlsCiphertext)
      return openTokenRegistroTls(layers.tenant.tokenRegistroTlsCiphertext, { tenantId: owners.tenantId });
  } catch {
    throw new PosApiError(500, "tls_token_unreadable", "internal error");
  }
  return "";
}

const posNotConfigured = (missing: readonly string[]) =>
  posError.business(
    "pos_not_configured",
    `transaction configuration not set for this PDV (missing ${missing.join(", ")}): an admin sets it under Ponto de venda`,
  );

function mergeTransactionConfig(layers: TConfigLayers, tokenRegistroTls: string, appUrl: string): TTransactionConfig {
  const pick = (field: Exclude<keyof TConfigRow, "tokenRegistroTlsCiphertext">) =>
    layers.pos[field] ?? layers.seller[field] ?? layers.tenant[field] ?? "";
  const storedAddress = pick("enderecoGateway");
  const config: TTransactionConfig = {
    empresaGateway: pick("empresaGateway"),
    // host:port, as the contract says, also for a row saved as a URL; an address that is neither counts as unset.
    enderecoGateway: storedAddress ? (normalizeHostPort(storedAddress) ?? "") : "",
    cnpjCpf: pick("cnpjCpf"),
    comExterna: pick("comExterna"),
    tokenRegistroTls,
    cnpjAutomacao: pick("cnpjAutomacao"),
    cnpjFacilitador: pick("cnpjFacilitador"),
    branding: {
      logoUrl: pick("logoUrl") || new URL(defaultPosLogoPath, appUrl).toString(),
      primaryColor: pick("primaryColor") || defaultPosBranding.primaryColor,
      secondaryColor: pick("secondaryColor") || defaultPosBranding.secondaryColor,
    },
  };
  const missing = requiredTransactionConfigFields.filter((field) => config[field] === "");
  if (missing.length > 0) throw posNotConfigured(missing);
  return config;
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
  const layers = {
    pos: configRow(device, "pos"),
    seller: configRow(device, "seller"),
    tenant: configRow(device, "tenant"),
  };
  const tokenRegistroTls = decryptTls(layers, { posId, sellerId: device.sellerId, tenantId: device.tenantId });
  if (device.isLastConfigStale) {
    await runSql(
      `UPDATE "PosDevice" SET "lastConfigAt" = ($2::timestamptz AT TIME ZONE 'UTC')
       WHERE "posId" = $1::text AND ("lastConfigAt" IS NULL OR "lastConfigAt" < ($3::timestamptz AT TIME ZONE 'UTC'))
       RETURNING 1 AS "touched"`,
      [posId, now.toISOString(), staleBefore],
    );
  }
  return mergeTransactionConfig(layers, tokenRegistroTls, serverEnv.APP_URL);
}
