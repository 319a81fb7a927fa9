import { checkWebhookSignature } from "./signature";

// An integrator wants to know why: a mismatch is retried against bodies a receiver commonly hashes instead of the raw bytes.

type TBodyHint = "trailingNewline" | "lineEndings" | "reserialized";

export type TSignatureDiagnosis =
  | { isValid: true }
  | {
      isValid: false;
      reason: "missing" | "wrong_length" | "not_hex" | "mismatch";
      signatureLength?: number;
      bodyHint?: TBodyHint;
    };

function reserialized(body: string): string | null {
  try {
    return JSON.stringify(JSON.parse(body));
  } catch {
    return null;
  }
}

function bodyVariants(body: string): [TBodyHint, string | null][] {
  return [
    ["trailingNewline", body.endsWith("\n") ? body.replace(/\r?\n$/, "") : `${body}\n`],
    ["lineEndings", body.includes("\r\n") ? body.replace(/\r\n/g, "\n") : body.replace(/\n/g, "\r\n")],
    ["reserialized", reserialized(body)],
  ];
}

export function diagnoseSignature(input: { body: string; signature: string; secret: string }): TSignatureDiagnosis {
  const check = checkWebhookSignature(input.secret, Buffer.from(input.body), input.signature);
  if (check.isValid) return check;
  if (check.reason === "wrong_length") return { ...check, signatureLength: input.signature.trim().length };
  if (check.reason !== "mismatch") return check;
  const hint = bodyVariants(input.body).find(
    ([, variant]) =>
      variant !== null &&
      variant !== input.body &&
      checkWebhookSignature(input.secret, Buffer.from(variant), input.signature).isValid,
  );
  return hint ? { ...check, bodyHint: hint[0] } : check;
}
