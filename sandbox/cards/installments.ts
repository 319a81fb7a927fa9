// Installment arithmetic in integer cents, shared by card payments (parcelas) and payment links (opcoesParcelamento).
// The split itself lives in lib/shared/installments.ts: the app previews the same amounts before a payment.
import { splitCents } from "../../lib/shared/installments";

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
