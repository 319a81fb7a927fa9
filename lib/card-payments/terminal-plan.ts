import { splitCents } from "@/lib/shared/installments";

// Pure and client-safe: the form previews installments with the gateway's arithmetic (lib/shared/installments.ts).

// 2.1 tipoParcelamento; the meanings are the sandbox's reading (sandbox/README.md, "tipoParcelamento").
export const terminalInstallmentTypes = ["3", "4", "6", "7"] as const;
export type TTerminalInstallmentType = (typeof terminalInstallmentTypes)[number];

export const terminalPlanKeys: Record<TTerminalInstallmentType, string> = {
  "3": "cashCredit",
  "4": "merchantInstallments",
  "6": "issuerInstallments",
  "7": "debit",
};

export const maxTerminalInstallments = 12;

/** Only the installment plans (4, 6) take a count; a one-payment credit (3) and debit (7) are one payment. */
export function takesInstallmentCount(type: string): boolean {
  return type === "4" || type === "6";
}

export function installmentCountFor(type: string, chosen: number): number {
  return takesInstallmentCount(type) ? chosen : 1;
}

export type TInstallmentPreview = {
  count: number;
  /** Integer cents of each installment, in order; the first also takes the leftover cents. */
  amountsCents: number[];
  /** Every installment but the first is the same amount: 0 with one installment. */
  firstCents: number;
  otherCents: number;
};

export function previewInstallments(
  amountCents: number | null,
  type: string,
  chosen: number,
): TInstallmentPreview | null {
  const count = installmentCountFor(type, chosen);
  if (amountCents === null || !Number.isSafeInteger(amountCents) || amountCents < 1) return null;
  if (!Number.isInteger(count) || count < 1 || count > maxTerminalInstallments) return null;
  const amountsCents = splitCents(amountCents, count);
  return { count, amountsCents, firstCents: amountsCents[0] ?? 0, otherCents: count > 1 ? (amountsCents[1] ?? 0) : 0 };
}
