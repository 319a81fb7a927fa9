import "server-only";
import { createPrivateKey, X509Certificate } from "node:crypto";
import type { TMessageKey, TMessageParams } from "@/lib/errors";
import { getGatewayConfig } from "./config";
import { isGatewayError, toAppError } from "./errors";
import { listWebhooks } from "./webhooks";

const dayMs = 24 * 60 * 60 * 1000;
const expiryWarningDays = 30;

export type TCertificateInfo = {
  subject: string;
  issuer: string;
  serialNumber: string;
  /** SHA-256 of the DER, colon-separated hex (as browsers and openssl show it). */
  fingerprintSha256: string;
  validFrom: string;
  validTo: string;
  daysUntilExpiry: number;
  expiryState: "valid" | "expiring" | "expired" | "not-yet-valid";
};

// Public facts only: the key is used to check that it matches, and never appears here.
export type TGatewayCertificateReport =
  | {
      ok: true;
      baseUrl: string;
      certificate: TCertificateInfo;
      isKeyMatching: boolean;
      ca: Pick<TCertificateInfo, "subject" | "validTo" | "expiryState"> | null;
      sources: { cert: string; key: string; ca: string | null };
    }
  | { ok: false; baseUrl: string | null; problem: string };

export function describeCertificate(pem: string, now = new Date()): TCertificateInfo {
  const certificate = new X509Certificate(pem);
  const validFrom = new Date(certificate.validFrom);
  const validTo = new Date(certificate.validTo);
  const daysUntilExpiry = Math.floor((validTo.getTime() - now.getTime()) / dayMs);
  let expiryState: TCertificateInfo["expiryState"] = "valid";
  if (now < validFrom) expiryState = "not-yet-valid";
  else if (now >= validTo) expiryState = "expired";
  else if (daysUntilExpiry < expiryWarningDays) expiryState = "expiring";
  return {
    subject: certificate.subject.replaceAll("\n", ", "),
    issuer: certificate.issuer.replaceAll("\n", ", "),
    serialNumber: certificate.serialNumber,
    fingerprintSha256: certificate.fingerprint256,
    validFrom: validFrom.toISOString(),
    validTo: validTo.toISOString(),
    daysUntilExpiry,
    expiryState,
  };
}

export function getGatewayCertificateReport(now = new Date()): TGatewayCertificateReport {
  let config: ReturnType<typeof getGatewayConfig>;
  try {
    config = getGatewayConfig();
  } catch (error) {
    return { ok: false, baseUrl: null, problem: error instanceof Error ? error.message : String(error) };
  }
  try {
    const certificate = describeCertificate(config.tls.cert, now);
    const isKeyMatching = new X509Certificate(config.tls.cert).checkPrivateKey(createPrivateKey(config.tls.key));
    // A CA bundle may hold several certificates; X509Certificate reads the first.
    const ca = config.tls.ca ? describeCertificate(config.tls.ca, now) : null;
    return {
      ok: true,
      baseUrl: config.baseUrl,
      certificate,
      isKeyMatching,
      ca: ca && { subject: ca.subject, validTo: ca.validTo, expiryState: ca.expiryState },
      sources: config.sources,
    };
  } catch (error) {
    return {
      ok: false,
      baseUrl: config.baseUrl,
      problem: `The certificate or key is not valid PEM: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

export type TConnectionCheck =
  | { ok: true; latencyMs: number; checkedAt: string }
  | {
      ok: false;
      latencyMs: number;
      checkedAt: string;
      code: string;
      messageKey: TMessageKey;
      params?: TMessageParams;
      detail: string;
      transactionId: string | null;
    };

// A cheap authenticated GET: proves DNS, TCP, the mTLS handshake and the API answering.
export async function checkGatewayConnection(): Promise<TConnectionCheck> {
  const startedAt = performance.now();
  const checkedAt = new Date().toISOString();
  try {
    await listWebhooks();
    return { ok: true, latencyMs: Math.round(performance.now() - startedAt), checkedAt };
  } catch (error) {
    const appError = toAppError(error);
    // The technical detail (e.g. "ECONNREFUSED") is for the admin; it holds no secret.
    const detail = error instanceof Error ? error.message : String(error);
    const transactionId = isGatewayError(error) ? error.transactionId : null;
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - startedAt),
      checkedAt,
      code: appError.code,
      messageKey: appError.messageKey,
      params: appError.params,
      detail,
      transactionId,
    };
  }
}
