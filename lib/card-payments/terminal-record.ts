import "server-only";
import { randomUUID } from "node:crypto";
import type { TRecordAuditInput } from "@/lib/audit/audit-log";
import { recordCreated, type TCreatedRowTable } from "@/lib/mirror/record-created";
import { cardPaymentLockKey, type newCardPaymentRows } from "./mirror";
import type { cardRetryAdviceRow } from "./retry-advice";

const createdCardPayment: TCreatedRowTable = {
  table: "CardPayment",
  idColumn: "id",
  children: [
    { table: "CardPaymentInstallment" },
    {
      table: "CardRetryBlock",
      onConflict: `("orderKey", "cardBin", "cardLastFour", "adviceCode") DO UPDATE SET "cardExpiry" = EXCLUDED."cardExpiry",
    "retryAfter" = EXCLUDED."retryAfter", "paymentId" = EXCLUDED."paymentId", "createdAt" = EXCLUDED."createdAt"`,
    },
  ],
};

export type TCreatedCardPayment = {
  rows: ReturnType<typeof newCardPaymentRows>;
  idempotencyKey: { scope: string; key: string };
  audit: TRecordAuditInput;
  retryAdvice: ReturnType<typeof cardRetryAdviceRow>;
  now: Date;
};

/** False when the mirror already had the payment: nothing was written. */
export function recordCreatedCardPayment(created: TCreatedCardPayment): Promise<boolean> {
  const { payment, installments } = created.rows;
  return recordCreated(createdCardPayment, {
    lockKey: cardPaymentLockKey(payment.id),
    row: payment,
    children: [installments, created.retryAdvice ? [{ id: randomUUID(), ...created.retryAdvice }] : []],
    idempotencyKey: created.idempotencyKey,
    audit: created.audit,
    change: { kind: "card_payment", id: payment.id },
    now: created.now,
  });
}
