import { z } from "zod";
import { defineEnvConcern, parseEnvConcern } from "./define-env";

export const payPageEnvConcern = defineEnvConcern("pay page", {
  MERCHANT_DISPLAY_NAME: z
    .string()
    .trim()
    .min(1)
    .max(80, "must be at most 80 characters")
    .default("Loja Sandbox")
    .describe(
      'Merchant name the payer sees on the hosted payment page (/pay/...), up to 80 characters; defaults to "Loja Sandbox".',
    ),
});

let cached: { merchantDisplayName: string } | undefined;

export function getPayPageEnv(): { merchantDisplayName: string } {
  cached ??= { merchantDisplayName: parseEnvConcern(payPageEnvConcern).MERCHANT_DISPLAY_NAME };
  return cached;
}
