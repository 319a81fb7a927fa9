// Installment arithmetic in integer cents, shared by card payments (parcelas) and payment links (opcoesParcelamento).

/**
 * Splits `totalCents` into `count` installments that add up exactly to the total: every installment gets
 * the floor of the division and the first one also takes the leftover cents (100.00 / 3 → 33.34, 33.33, 33.33).
 */
export function splitCents(totalCents: number, count: number): number[] {
  if (!Number.isInteger(totalCents) || totalCents < 0)
    throw new RangeError("totalCents must be a non-negative integer");
  if (!Number.isInteger(count) || count < 1) throw new RangeError("count must be a positive integer");
  const base = Math.floor(totalCents / count);
  const remainder = totalCents - base * count;
  return Array.from({ length: count }, (_, index) => (index === 0 ? base + remainder : base));
}

const brasiliaOffsetMs = -3 * 60 * 60 * 1000;

/**
 * The Brasília calendar date (YYYY-MM-DD) `months` months after `fromMs`. A day missing in the target month
 * falls back to its last day (31 Jan + 1 month → 28/29 Feb), so due dates stay one month apart.
 */
export function addMonthsDate(fromMs: number, months: number): string {
  const local = new Date(fromMs + brasiliaOffsetMs);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(Date.UTC(year, month, Math.min(local.getUTCDate(), lastDay)));
  return date.toISOString().slice(0, 10);
}

export type TInstallmentPlan = { numeroParcela: number; valorParcelaCents: number; dataVencimento: string };

/** Installment n is due n months after the payment, in amounts that add up exactly to the total. */
export function planInstallments(totalCents: number, count: number, paidAtMs: number): TInstallmentPlan[] {
  return splitCents(totalCents, count).map((valorParcelaCents, index) => ({
    numeroParcela: index + 1,
    valorParcelaCents,
    dataVencimento: addMonthsDate(paidAtMs, index + 1),
  }));
}
