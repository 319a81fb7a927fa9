import { z } from "zod";

// Wire schemas of the POS backend contract (sections 2.1–2.5). Field names are the contract's, exactly.

// 2.1
export const ZSellerActivationRequest = z.object({
  sellerToken: z.string({ error: "sellerToken is required (string)" }).min(1, { error: "sellerToken is empty" }),
});
export type TSellerActivationRequest = z.infer<typeof ZSellerActivationRequest>;

// 2.2
export const ZActivationResult = z.object({
  sellerId: z.string(),
  posId: z.string(),
  subEstablishmentRef: z.string(),
  tlsRegistered: z.boolean(),
});
export type TActivationResult = z.infer<typeof ZActivationResult>;

// 2.3
export const ZPosBranding = z.object({ logoUrl: z.string(), primaryColor: z.string(), secondaryColor: z.string() });
export const ZTransactionConfig = z.object({
  empresaGateway: z.string(),
  enderecoGateway: z.string(),
  cnpjCpf: z.string(),
  comExterna: z.string(),
  tokenRegistroTls: z.string(),
  cnpjAutomacao: z.string(),
  cnpjFacilitador: z.string(),
  branding: ZPosBranding,
});
export type TTransactionConfig = z.infer<typeof ZTransactionConfig>;

export const ZTransactionConfigQuery = z.object({
  posId: z.string({ error: "posId is required" }).trim().min(1, { error: "posId is required" }).max(200),
});

// ISO 8601 in UTC with milliseconds, as the SDK sends it: 2026-11-24T12:00:00.123Z.
const isoUtcMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const text = (field: string, max: number) =>
  z.string({ error: `${field} must be a string` }).max(max, { error: `${field} is longer than ${max}` });
const integer = (field: string) =>
  z.number({ error: `${field} must be an integer` }).int({ error: `${field} must be an integer` });

// 2.4
// Unknown fields are dropped, not refused: a newer SDK may send more than this version knows.
export const ZTransactionReport = z.object({
  posId: text("posId", 200).min(1, { error: "posId is empty" }),
  approved: z.boolean({ error: "approved must be a boolean" }),
  codResp: integer("codResp").min(-2_147_483_648).max(2_147_483_647),
  nsuGateway: text("nsuGateway", 64).min(1, { error: "nsuGateway is empty" }),
  nsuHost: text("nsuHost", 64),
  cardBrand: text("cardBrand", 40),
  acquirerNetwork: text("acquirerNetwork", 40),
  authorizationCode: text("authorizationCode", 40),
  installments: integer("installments").min(0, { error: "installments must be ≥ 0" }).max(99),
  amountInCents: integer("amountInCents")
    .min(0, { error: "amountInCents must be ≥ 0" })
    .max(2_147_483_647, { error: "amountInCents is too large" }),
  occurredAt: z
    .string({ error: "occurredAt must be a string" })
    .regex(isoUtcMillis, { error: "occurredAt must be ISO 8601 UTC with milliseconds (YYYY-MM-DDTHH:mm:ss.sssZ)" })
    .refine((value) => !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value, {
      error: "occurredAt is not a valid date",
    }),
});
export type TTransactionReport = z.infer<typeof ZTransactionReport>;

// 2.5
export const ZBusinessError = z.object({ code: z.number().int(), message: z.string() });
export type TBusinessError = z.infer<typeof ZBusinessError>;

// "field: problem" for the first issue, so the device's log names the field.
export function describeZodIssue(error: z.ZodError, input: unknown): string {
  const issue = error.issues[0];
  if (!issue) return "invalid body";
  const field = issue.path.join(".");
  if (issue.code === "unrecognized_keys") return `unknown field ${issue.keys.join(", ")}`;
  const value = issue.path.reduce<unknown>(
    (parent, key) => (parent && typeof parent === "object" ? (parent as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
  if (issue.code === "invalid_type" && value === undefined) return `${field || "body"} is required`;
  return field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
}
