// merchantAdviceCode (spec 2.2, 4.1): the values are "not shown", so the sandbox's Mastercard meanings (sandbox/README.md).

export type TMerchantAdviceKind = "updateCard" | "retryLater" | "doNotRetry" | "unknown";

export type TMerchantAdvice = {
  /** The code as the gateway sent it (shown with the unknown kind). */
  code: string;
  kind: TMerchantAdviceKind;
  canRetry: boolean;
};

const adviceByCode: Readonly<Record<string, Omit<TMerchantAdvice, "code">>> = {
  "01": { kind: "updateCard", canRetry: true },
  "02": { kind: "retryLater", canRetry: true },
  "03": { kind: "doNotRetry", canRetry: false },
};

export function merchantAdviceOf(code: string | null | undefined): TMerchantAdvice | null {
  const trimmed = code?.trim();
  if (!trimmed) return null;
  // Some networks send "1" for "01".
  const normalized = /^\d$/.test(trimmed) ? `0${trimmed}` : trimmed;
  const known = adviceByCode[normalized];
  return known ? { code: normalized, ...known } : { code: trimmed, kind: "unknown", canRetry: true };
}

export function adviceMessageKeys(kind: TMerchantAdviceKind) {
  return { title: `${kind}.title`, description: `${kind}.description` } as const;
}
