import { z } from "zod";
import { defineEnvConcern, parseEnvConcern } from "./define-env";

const ZTimeoutMs = z.coerce.number().int().min(100).max(300_000);

// Certificate and key come from files or as PEM text (hosted platforms); PEM wins when both are set. Files are
// checked on first use, so the app starts without them.
export const gatewayEnvConcern = defineEnvConcern("gateway", {
  GATEWAY_BASE_URL: z
    .url({ protocol: /^https$/, error: "must be an https:// URL" })
    .default("https://127.0.0.1:8443")
    .describe(
      "Base URL of the payments API (without /api/v1), e.g. https://api.gateway.example; defaults to the local sandbox https://127.0.0.1:8443.",
    ),
  GATEWAY_CLIENT_CERT_FILE: z
    .string()
    .default(".data/certs/merchant.pem")
    .describe(
      "Path of the merchant client certificate (PEM) issued at onboarding; defaults to .data/certs/merchant.pem (run `npm run certs` for the sandbox's).",
    ),
  GATEWAY_CLIENT_CERT: z
    .string()
    .optional()
    .describe(
      "The merchant client certificate as PEM text (literal \\n accepted), for hosted deployments; used instead of GATEWAY_CLIENT_CERT_FILE.",
    ),
  GATEWAY_CLIENT_KEY_FILE: z
    .string()
    .default(".data/certs/merchant-key.pem")
    .describe(
      "Path of the private key of the client certificate (PEM); defaults to .data/certs/merchant-key.pem. Keep it out of version control.",
    ),
  GATEWAY_CLIENT_KEY: z
    .string()
    .optional()
    .describe(
      "The private key as PEM text (literal \\n accepted), for hosted deployments; used instead of GATEWAY_CLIENT_KEY_FILE.",
    ),
  GATEWAY_CA_FILE: z
    .string()
    .optional()
    .describe(
      "Path of the CA (PEM) that signed the gateway's server certificate, when it is not publicly trusted; defaults to .data/certs/ca.pem when that file exists.",
    ),
  GATEWAY_CA: z
    .string()
    .optional()
    .describe("The gateway CA as PEM text (literal \\n accepted); used instead of GATEWAY_CA_FILE."),
  GATEWAY_CONNECT_TIMEOUT_MS: ZTimeoutMs.default(5000).describe(
    "Milliseconds to establish the TLS connection, 100 to 300000; defaults to 5000.",
  ),
  GATEWAY_RESPONSE_TIMEOUT_MS: ZTimeoutMs.default(15000).describe(
    "Milliseconds to wait for the response headers and between body chunks, 100 to 300000; defaults to 15000.",
  ),
  GATEWAY_GET_RETRIES: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(2)
    .describe(
      "How many times a GET is retried after a connection error, 0 to 10; defaults to 2. Writes are never retried.",
    ),
});

export type TGatewayEnv = z.infer<typeof gatewayEnvConcern.schema>;

export function getGatewayEnv(env: Record<string, string | undefined> = process.env): TGatewayEnv {
  return parseEnvConcern(gatewayEnvConcern, env);
}
