// Through the decimal text, so 0.29 never becomes 28.999… cents.

const amountPattern = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

export function amountToCents(amount: number | string): number {
  const text = typeof amount === "number" ? String(amount) : amount.trim();
  const match = amountPattern.exec(text);
  if (!match) throw new RangeError(`Not an amount with at most two decimals: ${text}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount out of range: ${text}`);
  return match[1] && cents !== 0 ? -cents : cents;
}

export function isExactAmount(amount: number | string): boolean {
  try {
    amountToCents(amount);
    return true;
  } catch {
    return false;
  }
}

export function centsToAmountString(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Cents must be an integer: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

export function centsToAmount(cents: number): number {
  return Number(centsToAmountString(cents));
}
