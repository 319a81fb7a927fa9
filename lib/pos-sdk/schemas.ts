import { z } from "zod";

// Public names follow the contract's extension point (ActivationResult, …), not the app's T… prefix: published API.

export const ZActivationRequest = z.object({
  sellerToken: z.string({ error: "sellerToken is required (string)" }).min(1, { error: "sellerToken is empty" }),
});

export const ZActivationResult = z.object({
  sellerId: z.string().min(1),
  posId: z.string().min(1),
  subEstablishmentRef: z.string(),
  tlsRegistered: z.boolean(),
});
export type ActivationResult = z.infer<typeof ZActivationResult>;

const ZHexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "hex color");

// 2.3: short-lived; the client never caches it (a sale fetches it again).
export const ZTransactionConfig = z.object({
  empresaGateway: z.string(),
  enderecoGateway: z.string(),
  cnpjCpf: z.string(),
  comExterna: z.string(),
  tokenRegistroTls: z.string(),
  cnpjAutomacao: z.string(),
  cnpjFacilitador: z.string(),
  branding: z.object({ logoUrl: z.url(), primaryColor: ZHexColor, secondaryColor: ZHexColor }),
});
export type TransactionConfig = z.infer<typeof ZTransactionConfig>;

export const requiredTransactionConfigFields = [
  "empresaGateway",
  "enderecoGateway",
  "cnpjCpf",
  "comExterna",
  "tokenRegistroTls",
  "cnpjAutomacao",
  "cnpjFacilitador",
] as const satisfies readonly (keyof TransactionConfig)[];

const isoInstantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function isRealInstant(value: string): boolean {
  const at = Date.parse(value);
  return !Number.isNaN(at) && new Date(at).toISOString() === value;
}

// The server's limits (lib/pos/schemas.ts), so the fake refuses what the server refuses; messages name the field.
const text = (field: string, max: number) =>
  z.string({ error: `${field} must be a string` }).max(max, { error: `${field} is longer than ${max}` });
const integer = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(min, { error: `${field} must be ≥ ${min}` })
    .max(max, { error: `${field} must be ≤ ${max}` });

export const ZTransactionReport = z.object({
  posId: text("posId", 200).min(1, { error: "posId is empty" }),
  approved: z.boolean({ error: "approved must be a boolean" }),
  codResp: integer("codResp", -2_147_483_648, 2_147_483_647),
  nsuGateway: text("nsuGateway", 64).min(1, { error: "nsuGateway is empty" }),
  nsuHost: text("nsuHost", 64),
  cardBrand: text("cardBrand", 40),
  acquirerNetwork: text("acquirerNetwork", 40),
  authorizationCode: text("authorizationCode", 40),
  installments: integer("installments", 0, 99),
  amountInCents: integer("amountInCents", 0, 2_147_483_647),
  occurredAt: z
    .string({ error: "occurredAt must be a string" })
    .regex(isoInstantPattern, { error: "occurredAt must be ISO 8601 UTC with milliseconds" })
    .refine(isRealInstant, {
      error: "occurredAt is not a valid date",
    }),
});
export type TransactionReport = z.infer<typeof ZTransactionReport>;

// occurredAt against the backend's clock (docs/pos.md): a device that was offline may report a sale late, but not
// one older than the matching pass still reads (45 days) less a margin, nor one from the future beyond clock skew.
const occurredAtMaxAgeMs = 30 * 24 * 60 * 60_000;
const occurredAtMaxAheadMs = 5 * 60_000;

export function occurredAtBoundsProblem(occurredAt: string, now: Date): string | null {
  const at = Date.parse(occurredAt);
  if (at < now.getTime() - occurredAtMaxAgeMs) return "occurredAt is more than 30 days in the past";
  if (at > now.getTime() + occurredAtMaxAheadMs) return "occurredAt is more than 5 minutes in the future";
  return null;
}

export const ZBusinessError = z.object({ code: z.number().int(), message: z.string() });
export type TBusinessError = z.infer<typeof ZBusinessError>;
