// merchantAdviceCode (spec 2.2, 4.1): what the authorizer or card network recommends after a refusal. The spec
// leaves the values "not shown"; the sandbox follows Mastercard's meanings (sandbox/README.md, "Test cards").
// Pure and client-safe: the card payment page and the virtual terminal's result page explain a refusal from here,
// with the texts under `cardPayments.advice.<kind>` in the message catalogs.

export type TMerchantAdviceKind = "updateCard" | "retryLater" | "doNotRetry" | "unknown";

export type TMerchantAdvice = {
  /** The code as the gateway sent it (shown with the unknown kind). */
  code: string;
  kind: TMerchantAdviceKind;
  /** Whether the same card may be charged again (after the advised step). */
  canRetry: boolean;
};

const adviceByCode: Readonly<Record<string, Omit<TMerchantAdvice, "code">>> = {
  "01": { kind: "updateCard", canRetry: true },
  "02": { kind: "retryLater", canRetry: true },
  "03": { kind: "doNotRetry", canRetry: false },
};

/** The advice for a refusal's code; null when the refusal carried none. Unknown codes get a generic advice. */
export function merchantAdviceOf(code: string | null | undefined): TMerchantAdvice | null {
  const trimmed = code?.trim();
  if (!trimmed) return null;
  // Some networks send "1" for "01".
  const normalized = /^\d$/.test(trimmed) ? `0${trimmed}` : trimmed;
  const known = adviceByCode[normalized];
  return known ? { code: normalized, ...known } : { code: trimmed, kind: "unknown", canRetry: true };
}

/** The message keys of an advice, relative to the `cardPayments.advice` namespace. */
export function adviceMessageKeys(kind: TMerchantAdviceKind) {
  return { title: `${kind}.title`, description: `${kind}.description` } as const;
}
