import "server-only";
import type { PaymentLink, Prisma } from "@/lib/generated/prisma/client";
import { isLinkSettledByPix } from "./settlement";
import {
  paymentLinkMethodCodes,
  paymentLinkStatusCodes,
  type TInstallmentOption,
  type TPaymentLinkListRow,
  type TPaymentLinkView,
} from "./types";

const { CREATED, EXPIRED, PAID } = paymentLinkStatusCodes;

// A CREATED link past expiry is EXPIRED; one paid by Pix is PAID whatever upstream says (lib/links/settlement.ts).
export function effectiveStatusCode(
  link: Pick<PaymentLink, "statusCode" | "expiresAt" | "pixPaidTxid">,
  now: Date,
): number {
  if (link.pixPaidTxid) return PAID;
  return link.statusCode === CREATED && link.expiresAt <= now ? EXPIRED : link.statusCode;
}

function paymentOf(link: PaymentLink): NonNullable<TPaymentLinkView["payment"]> {
  if (isLinkSettledByPix(link)) {
    return {
      methodCode: paymentLinkMethodCodes.PIX,
      methodDescription: "PIX",
      receipt: link.pixPaidTxid,
      transactionId: link.pixPaidEndToEndId,
      paidAt: link.pixPaidAt?.toISOString() ?? null,
      pixChargeTxid: link.pixPaidTxid,
    };
  }
  return {
    methodCode: link.paidMethodCode,
    methodDescription: link.paidMethodDescription,
    receipt: link.paymentReceipt,
    transactionId: link.transactionId,
    paidAt: link.paidAt?.toISOString() ?? null,
    pixChargeTxid: null,
  };
}

export function toPaymentLinkView(link: PaymentLink, now: Date): TPaymentLinkView {
  const statusCode = effectiveStatusCode(link, now);
  return {
    linkPaymentUuid: link.linkPaymentUuid,
    linkPaymentId: link.linkPaymentId,
    statusCode,
    statusDescription: statusCode === link.statusCode ? link.statusDescription : "EXPIRED",
    amountCents: link.amountCents,
    payer: { name: link.payerName, document: link.payerDocument, isForeign: link.isForeignPayer },
    installments: link.installments,
    installmentOptions: link.installmentOptions as TInstallmentOption[],
    acceptedMethodCodes: link.acceptedMethodCodes,
    paymentUrl: link.paymentUrl,
    verificationCode: link.verificationCode,
    description: link.description,
    userReference: link.userReference,
    createdAt: link.creationDate.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    expirationDays: link.expirationDays,
    payment: statusCode === PAID ? paymentOf(link) : null,
    // Upstream cancels a link that is neither paid nor cancelled (an expired one too).
    canCancel: statusCode === CREATED || statusCode === EXPIRED,
    cardLock: null,
    verificationLock: null,
    pixRefundDue: null,
    syncedAt: link.syncedAt.toISOString(),
  };
}

export const paymentLinkListSelect = {
  linkPaymentUuid: true,
  statusCode: true,
  amountCents: true,
  installments: true,
  creationDate: true,
  expiresAt: true,
  payerName: true,
  payerDocument: true,
  isForeignPayer: true,
  userReference: true,
  paidMethodCode: true,
  paymentReceipt: true,
  pixPaidTxid: true,
} satisfies Prisma.PaymentLinkSelect;

export function toPaymentLinkListRow(
  link: Prisma.PaymentLinkGetPayload<{ select: typeof paymentLinkListSelect }>,
  now: Date,
): TPaymentLinkListRow {
  return {
    linkPaymentUuid: link.linkPaymentUuid,
    statusCode: effectiveStatusCode(link, now),
    amountCents: link.amountCents,
    installments: link.installments,
    payerName: link.payerName,
    payerDocument: link.payerDocument,
    isForeignPayer: link.isForeignPayer,
    userReference: link.userReference,
    paidMethodCode: isLinkSettledByPix(link) ? paymentLinkMethodCodes.PIX : link.paidMethodCode,
    paymentReceipt: link.pixPaidTxid ?? link.paymentReceipt,
    createdAt: link.creationDate.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
  };
}
