import { z } from "zod";
import type { ZTransactionReport } from "@/lib/pos-sdk/schemas";
import { ZActivationRequest, type ZActivationResult, type ZTransactionConfig } from "@/lib/pos-sdk/schemas";

// The wire schemas are the SDK's, so the server, the client and its fake accept and refuse the same bodies.

export const ZSellerActivationRequest = ZActivationRequest;

// 2.2 and 2.3: what the server answers must pass the SDK's checks (non-empty ids, a logo URL, hex colours).
export type TActivationResult = z.infer<typeof ZActivationResult>;
export type TTransactionConfig = z.infer<typeof ZTransactionConfig>;

export const ZTransactionConfigQuery = z.object({
  posId: z.string({ error: "posId is required" }).trim().min(1, { error: "posId is required" }).max(200),
});

export { occurredAtBoundsProblem, ZTransactionReport } from "@/lib/pos-sdk/schemas";
export type TTransactionReport = z.infer<typeof ZTransactionReport>;

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
