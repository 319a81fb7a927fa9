// Pure types and constants, safe for client components. Money is integer cents; dates are ISO 8601 strings.

export { paymentLinkMethodCodes, paymentLinkStatusFilters } from "@/lib/gateway/schemas/payment-link";

import type { paymentLinkStatusFilters } from "@/lib/gateway/schemas/payment-link";

export type TPaymentLinkStatusFilter = (typeof paymentLinkStatusFilters)[number];

// Spec 3.3 (codes 2 and 4 as the sandbox shows them).
export const paymentLinkStatusCodes = { CREATED: 1, EXPIRED: 2, PAID: 3, CANCELLED: 4 } as const;

// The list filter's Portuguese names (3.3) for the body's codes.
export const statusCodeByFilter: Record<TPaymentLinkStatusFilter, number> = {
  ATIVO: 1,
  EXPIRADO: 2,
  PAGO: 3,
  CANCELADO: 4,
};

export const paymentLinkLimits = { maxInstallments: 12, minDays: 1, maxDays: 365, defaultDays: 7 } as const;

export type TInstallmentOption = {
  installments: number;
  // The first installment's amount: it carries the leftover cents, so the options add up to the total.
  amountCents: number;
};

export type TPaymentLinkView = {
  linkPaymentUuid: string;
  linkPaymentId: number;
  // Shown status: a CREATED link past its expiry reads as EXPIRED (2) before upstream is read again.
  statusCode: number;
  statusDescription: string;
  amountCents: number;
  payer: { name: string; document: string; isForeign: boolean };
  installments: number;
  installmentOptions: TInstallmentOption[];
  acceptedMethodCodes: number[];
  paymentUrl: string;
  // The payer's secret, for staff to pass on by another channel.
  verificationCode: string;
  description: string | null;
  userReference: string | null;
  createdAt: string;
  expiresAt: string;
  expirationDays: number;
  payment: {
    methodCode: number | null;
    methodDescription: string | null;
    receipt: string | null;
    transactionId: string | null;
    paidAt: string | null;
    // The Pix charge that paid the link (upstream keeps such a link CREATED); null when paid by card.
    pixChargeTxid: string | null;
  } | null;
  canCancel: boolean;
  // The hosted page locked card payments after refused attempts (ISO 8601 end of the lock).
  cardLock: { lockedUntil: string; refusedAttempts: number } | null;
  // The hosted page stopped taking verification codes after too many wrong ones.
  verificationLock: { wrongCodes: number } | null;
  // A Pix payment that landed after the link was cancelled, still to be given back.
  pixRefundDue: { txid: string; amountCents: number } | null;
  syncedAt: string;
};

export type TPaymentLinkListRow = {
  linkPaymentUuid: string;
  statusCode: number;
  amountCents: number;
  installments: number;
  payerName: string;
  payerDocument: string;
  isForeignPayer: boolean;
  userReference: string | null;
  paidMethodCode: number | null;
  paymentReceipt: string | null;
  createdAt: string;
  expiresAt: string;
};

export type TRefreshLinksResult = { received: number; upserted: number };
