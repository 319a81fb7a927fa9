import { z } from "zod";
import type { ZTransactionReport } from "@/lib/pos-sdk/schemas";

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

// 2.4 and 2.5: the SDK's wire schemas, so the server and the client (and its in-memory fake) refuse the same reports.
export { occurredAtBoundsProblem, ZBusinessError, ZTransactionReport } from "@/lib/pos-sdk/schemas";
export type TTransactionReport = z.infer<typeof ZTransactionReport>;

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
