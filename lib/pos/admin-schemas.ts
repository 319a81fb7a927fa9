import { z } from "zod";
import { ZDay, ZOptionalAmountReais, ZOptionalDay, ZOptionalFilterText, ZPage } from "@/lib/list/schemas";
import { isValidCnpj, isValidCpfOrCnpj, normalizeCnpj } from "@/lib/shared/cpf-cnpj";

const posSellerTokenAlgorithms = ["HS256", "RS256", "ES256"] as const;
export type TPosSellerTokenAlgorithm = (typeof posSellerTokenAlgorithms)[number];

const ZPosApiKeyId = z.uuid({ error: "invalidKey" });

export const ZCreatePosApiKeyInput = z.object({
  name: z.string({ error: "nameRequired" }).trim().min(1, { error: "nameRequired" }).max(80, { error: "nameTooLong" }),
  // The key works until the end of this São Paulo day; empty: no expiry.
  expiresOn: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(ZDay.optional())
    .optional(),
});

export const ZRotatePosApiKeyInput = ZCreatePosApiKeyInput.extend({ keyId: ZPosApiKeyId });

export const ZPosApiKeyIdInput = z.object({ keyId: ZPosApiKeyId });

const ZHttpsUrl = z.url({ protocol: /^https$/, error: "httpsUrl" }).max(500, { error: "urlTooLong" });

export const ZSellerTokenVerificationInput = z.discriminatedUnion("mode", [
  z.object({ keyId: ZPosApiKeyId, mode: z.literal("HS256") }),
  z.object({
    keyId: ZPosApiKeyId,
    mode: z.literal("PEM"),
    algorithm: z.enum(["RS256", "ES256"], { error: "invalidAlgorithm" }),
    publicKey: z
      .string({ error: "invalidPublicKey" })
      .trim()
      .min(1, { error: "invalidPublicKey" })
      .max(10_000, { error: "invalidPublicKey" }),
  }),
  z.object({
    keyId: ZPosApiKeyId,
    mode: z.literal("JWKS"),
    algorithm: z.enum(["RS256", "ES256"], { error: "invalidAlgorithm" }),
    jwksUrl: ZHttpsUrl,
  }),
]);

export const ZPosStatusInput = z
  .object({
    kind: z.enum(["seller", "device"]),
    id: z.string().trim().min(1).max(200),
    isBlocked: z.boolean(),
    reason: z
      .string()
      .trim()
      .max(300, { error: "reasonTooLong" })
      .transform((value) => value || undefined)
      .optional(),
  })
  .refine((input) => !input.isBlocked || Boolean(input.reason), { error: "reasonRequired", path: ["reason"] });

const hostPortPattern =
  /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*):(\d{1,5})$/;

function isValidHostPort(value: string): boolean {
  const match = hostPortPattern.exec(value);
  if (!match) return false;
  const port = Number(match[1]);
  if (port < 1 || port > 65_535) return false;
  const host = value.slice(0, value.lastIndexOf(":"));
  if (/^[\d.]+$/.test(host))
    return host.split(".").length === 4 && host.split(".").every((part) => Number(part) <= 255);
  return true;
}

// A URL (a row saved before the host:port rule) gives its host and port, the scheme's default when it has none.
const defaultPortOfScheme: Record<string, string> = { "https:": "443", "http:": "80" };

export function normalizeHostPort(value: string): string | null {
  const text = value.trim();
  if (isValidHostPort(text)) return text;
  if (!text.includes("://")) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const port = url.port || defaultPortOfScheme[url.protocol];
  if (!port || !url.hostname) return null;
  const hostPort = `${url.hostname}:${port}`;
  return isValidHostPort(hostPort) ? hostPort : null;
}

// Empty text means "not set": on a PDV override it falls back to the seller's value.
const optionalText = (max: number, error: string) =>
  z
    .string()
    .trim()
    .max(max, { error })
    .transform((value) => value || null)
    .nullable()
    .optional()
    .transform((value) => value ?? null);

const optionalChecked = (check: (value: string) => boolean, normalize: (value: string) => string, error: string) =>
  optionalText(200, error)
    .refine((value) => value === null || check(value), { error })
    .transform((value) => (value === null ? null : normalize(value)));

const alphanumeric = { allowAlphanumeric: true };
const ZHexColor = optionalChecked(
  (value) => /^#[0-9a-fA-F]{6}$/.test(value),
  (value) => value.toLowerCase(),
  "invalidColor",
);

export const ZPosConfigFields = z.object({
  empresaGateway: optionalText(60, "tooLong"),
  // Exactly host:port as typed (a URL is refused, not guessed at); a row stored as a URL earlier is normalised on read.
  enderecoGateway: optionalChecked(isValidHostPort, (value) => value, "invalidHostPort"),
  cnpjCpf: optionalChecked((value) => isValidCpfOrCnpj(value, alphanumeric), normalizeCnpj, "invalidCpfCnpj"),
  comExterna: optionalText(20, "tooLong"),
  cnpjAutomacao: optionalChecked((value) => isValidCnpj(value, alphanumeric), normalizeCnpj, "invalidCnpj"),
  cnpjFacilitador: optionalChecked((value) => isValidCnpj(value, alphanumeric), normalizeCnpj, "invalidCnpj"),
  logoUrl: optionalText(500, "urlTooLong").pipe(ZHttpsUrl.nullable()),
  primaryColor: ZHexColor,
  secondaryColor: ZHexColor,
  tokenRegistroTls: z
    .discriminatedUnion("action", [
      z.object({ action: z.literal("keep") }),
      z.object({ action: z.literal("clear") }),
      z.object({
        action: z.literal("replace"),
        value: z.string().trim().min(1, { error: "tokenRequired" }).max(2_000, { error: "tooLong" }),
      }),
    ])
    .default({ action: "keep" }),
});

export const ZSavePosConfigInput = ZPosConfigFields.extend({
  sellerId: z.string().trim().min(1).max(200),
  posId: z.string().trim().min(1).max(200).optional(),
});

export const ZSavePosTenantConfigInput = ZPosConfigFields.extend({ tenantId: z.uuid({ error: "invalidTenant" }) });

const posTerminalCodePattern = /^[A-Za-z0-9_-]{1,32}$/;
const posMaxTerminals = 500;

export function parsePosTerminalCodes(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\r\n,]+/)
        .map((code) => code.trim())
        .filter(Boolean),
    ),
  ];
}

// An invalid code's issue has the path terminals.<index in the parsed list>, so the form can name it.
export const ZSavePosTenantTerminalsInput = z.object({
  tenantId: z.uuid({ error: "invalidTenant" }),
  terminals: z
    .string({ error: "tooLong" })
    .max(50_000, { error: "tooLong" })
    .transform(parsePosTerminalCodes)
    .pipe(
      z
        .array(z.string().regex(posTerminalCodePattern, { error: "invalidTerminal" }))
        .max(posMaxTerminals, { error: "tooManyTerminals" }),
    ),
});

export const ZRemovePosOverrideInput = z.object({ posId: z.string().trim().min(1).max(200) });

export const ZRunPosMatchingInput = z.object({});

export const posListPageSize = 50;

export const posStatusFilters = ["ACTIVE", "BLOCKED"] as const;

export const ZPosSellerFilters = z.object({
  q: ZOptionalFilterText(200),
  status: z.enum(posStatusFilters).optional().catch(undefined),
  page: ZPage,
});
export type TPosSellerFilters = z.infer<typeof ZPosSellerFilters>;

export const posApprovedFilters = ["yes", "no"] as const;
export const posMatchStatuses = ["PENDING", "MATCHED", "MISSING_AT_GATEWAY", "AMOUNT_MISMATCH"] as const;

export const ZPosSalesFilters = z.object({
  from: ZOptionalDay,
  to: ZOptionalDay,
  sellerId: ZOptionalFilterText(200),
  posId: ZOptionalFilterText(200),
  approved: z.enum(posApprovedFilters).optional().catch(undefined),
  brand: ZOptionalFilterText(40),
  network: ZOptionalFilterText(40),
  minAmount: ZOptionalAmountReais,
  maxAmount: ZOptionalAmountReais,
  match: z.enum(posMatchStatuses).optional().catch(undefined),
  page: ZPage,
});
export type TPosSalesFilters = z.infer<typeof ZPosSalesFilters>;
