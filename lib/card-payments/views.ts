import { ZPaymentCancellation } from "@/lib/gateway/schemas/payment";
import type { CardPaymentOrigin } from "@/lib/generated/prisma/client";
import { brandFromBandeiraCartao, type TCardBrand } from "@/lib/shared/card";
import type { TMirroredCardPayment } from "./mirror";
import { cardPaymentStatuses } from "./types";

// What the card payment page shows: plain JSON (dates as ISO strings), so it crosses to client components.

export type TCardPaymentStatusKind = "approved" | "cancelled" | "refused" | "unknown";

type TCardPaymentInstallmentView = { number: number; amountCents: number; dueDate: string };

/** What the cancellation answer (2.4) said, as this app's cancel received it; null when it was cancelled elsewhere. */
type TCardPaymentCancellationView = {
  mensagem: string;
  authorizationNumber: string | null;
  acquirerTransactionId: string | null;
  ecommerceGatewayUsn: string | null;
  hostUsn: string | null;
  tid: string | null;
  isHostCancel: string | null;
  customerReceipt: string | null;
  merchantReceipt: string | null;
};

export type TCardPaymentView = {
  id: string;
  orderId: string | null;
  status: string;
  statusKind: TCardPaymentStatusKind;
  responseCode: string;
  responseMessage: string;
  merchantAdviceCode: string | null;
  amountCents: number;
  cancelledCents: number;
  cancelledAt: string | null;
  paymentType: string | null;
  brandCode: string | null;
  brand: TCardBrand | null;
  cardBin: string | null;
  cardLastFour: string | null;
  installmentCount: number;
  installmentType: string | null;
  authorizationCode: string | null;
  authorizerMessage: string | null;
  authorizationNumber: string | null;
  acquirerTransactionId: string | null;
  acquirerCode: string | null;
  acquirerName: string | null;
  hostUsn: string | null;
  gatewayUsn: string | null;
  ecommerceGatewayUsn: string | null;
  merchantUsn: string | null;
  terminalId: string | null;
  issuer: string | null;
  authorizerMerchantId: string | null;
  cancellation: TCardPaymentCancellationView | null;
  authorizedAt: string | null;
  paidAt: string | null;
  occurredAt: string;
  customerReceipt: string | null;
  merchantReceipt: string | null;
  origin: CardPaymentOrigin;
  linkPaymentUuid: string | null;
  installments: TCardPaymentInstallmentView[];
  installmentsTotalCents: number;
  syncedAt: string;
  canCancel: boolean;
};

// A refusal is told by codigo, never by the status alone (lib/card-payments/types.ts).
export function statusKindOf(payment: { status: string; isApproved: boolean }): TCardPaymentStatusKind {
  if (payment.status === cardPaymentStatuses.CANCELLED) return "cancelled";
  if (!payment.isApproved || payment.status === cardPaymentStatuses.REFUSED) return "refused";
  if (payment.status === cardPaymentStatuses.APPROVED) return "approved";
  return "unknown";
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function cancellationViewOf(stored: unknown): TCardPaymentCancellationView | null {
  const parsed = ZPaymentCancellation.safeParse(stored);
  if (!parsed.success) return null;
  const answer = parsed.data;
  return {
    mensagem: answer.mensagem,
    authorizationNumber: answer.numeroAutorizacao ?? null,
    acquirerTransactionId: answer.identicadorPagamentoAdquirente ?? null,
    ecommerceGatewayUsn: answer.ecommerceGatewayUsn ?? null,
    hostUsn: answer.hostUsn ?? null,
    tid: answer.tid ?? null,
    isHostCancel: answer.isHostCancel ?? null,
    customerReceipt: answer.cupomCliente ?? null,
    merchantReceipt: answer.cupomEstabelecimento ?? null,
  };
}

export function toCardPaymentView(payment: TMirroredCardPayment): TCardPaymentView {
  const statusKind = statusKindOf(payment);
  const installments = payment.installments.map(({ number, amountCents, dueDate }) => ({
    number,
    amountCents,
    dueDate,
  }));
  return {
    id: payment.id,
    orderId: payment.orderId,
    status: payment.status,
    statusKind,
    responseCode: payment.responseCode,
    responseMessage: payment.responseMessage,
    merchantAdviceCode: payment.merchantAdviceCode,
    amountCents: payment.amountCents,
    cancelledCents: payment.cancelledCents,
    cancelledAt: iso(payment.cancelledAt),
    paymentType: payment.paymentType,
    brandCode: payment.brandCode,
    brand: payment.brandCode ? brandFromBandeiraCartao(payment.brandCode) : null,
    cardBin: payment.cardBin,
    cardLastFour: payment.cardLastFour,
    installmentCount: payment.installmentCount,
    installmentType: payment.installmentType,
    authorizationCode: payment.authorizationCode,
    authorizerMessage: payment.authorizerMessage,
    authorizationNumber: payment.authorizationNumber,
    acquirerTransactionId: payment.acquirerTransactionId,
    acquirerCode: payment.acquirerCode,
    acquirerName: payment.acquirerName,
    hostUsn: payment.hostUsn,
    gatewayUsn: payment.gatewayUsn,
    ecommerceGatewayUsn: payment.ecommerceGatewayUsn,
    merchantUsn: payment.merchantUsn,
    terminalId: payment.terminalId,
    issuer: payment.issuer,
    authorizerMerchantId: payment.authorizerMerchantId,
    cancellation: cancellationViewOf(payment.cancellation),
    authorizedAt: iso(payment.authorizedAt),
    paidAt: iso(payment.paidAt),
    occurredAt: payment.occurredAt.toISOString(),
    customerReceipt: payment.customerReceipt,
    merchantReceipt: payment.merchantReceipt,
    origin: payment.origin,
    linkPaymentUuid: payment.linkPaymentUuid,
    installments,
    installmentsTotalCents: installments.reduce((sum, installment) => sum + installment.amountCents, 0),
    syncedAt: payment.syncedAt.toISOString(),
    // Spec 3.1 leaves the cancellable states "not shown"; the sandbox cancels only CON, and a 409 says the rest.
    canCancel: statusKind === "approved",
  };
}
