// Tests and the benchmark only: delivery bodies as the gateway sends them (spec 6.2, 2.6-2.8) and signed headers.
import { randomUUID } from "node:crypto";
import { signWebhookBody } from "../signature";

const at = "2026-11-21T10:15:30.123-03:00";

export function paidCharge(txid: string, overrides: Record<string, unknown> = {}) {
  return {
    txid,
    calendar: { creationDate: at, expiration: 3600, expirationDate: "2026-11-21T11:15:30.123-03:00" },
    debtor: null,
    amount: 25.9,
    status: "PAID",
    pixCopyAndPaste: "00020101021226...",
    qrCodeBase64: null,
    description: null,
    userReference: null,
    pix: {
      endToEndId: `E${txid}`,
      amount: "25.90",
      creationDate: at,
      payerName: "PAGADOR SANDBOX",
      payerDocumentNumber: "52998224725",
    },
    devolutionAllowed: true,
    devolutions: null,
    ...overrides,
  };
}

export function paidChargeEvent(txid: string, overrides: Record<string, unknown> = {}) {
  return { event: "pix_charge.paid", occurredAt: at, data: paidCharge(txid, overrides) };
}

export function refundReturnedEvent(txid: string, pixRefundId: string, overrides: Record<string, unknown> = {}) {
  return {
    event: "pix_refund.returned",
    occurredAt: at,
    data: {
      pixRefundId,
      pixChargeId: 1,
      tenantId: randomUUID(),
      partnerBankId: 1,
      amount: 10,
      status: { code: 3, description: "RETURNED" },
      statusReason: null,
      pixChargeTxid: txid,
      refundEndToEnd: `D${pixRefundId}`,
      sendWebhookInt: 1,
      pixEndToEnd: `E${txid}`,
      creationDate: at,
      updatedAt: at,
      refundTypeCode: 1,
      numberRetries: 0,
      settlementDate: at,
      description: "Devolução",
      ...overrides,
    },
  };
}

export function paymentLinkEvent(linkPaymentUuid: string) {
  return {
    event: "link_payment.paid",
    occurredAt: at,
    data: {
      linkPaymentId: 7,
      linkPaymentUuid,
      clienteId: 1,
      nomePagador: "Fulano de Tal",
      numeroInscricao: "52998224725",
      isEstrangeiro: false,
      valor: 100,
      numeroParcelas: 1,
      status: { code: 3, description: "PAID" },
      urlPagamento: `http://127.0.0.1:3000/pay/${linkPaymentUuid}`,
      descricao: null,
      tokenVerificacao: 123456,
      opcoesParcelamento: [{ numberInstallments: 1, amountInstallment: 100 }],
      userReference: null,
      comprovantePagamento: "RECEIPT-1",
      identificadorTransacao: "PAY-1",
      metodoPagamento: { code: 1, description: "CREDIT_CARD" },
      dataCriacao: at,
      metodosPagamentoAceitos: [{ code: 1, description: "CREDIT_CARD" }],
      diasExpiracao: 7,
    },
  };
}

export function signedHeaders(
  secret: string,
  body: Buffer,
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const event = /"event"\s*:\s*"([^"]*)"/.exec(body.subarray(0, 200).toString("utf8"))?.[1] ?? "unknown";
  const headers: Record<string, string | undefined> = {
    "content-type": "application/json",
    "x-webhook-event": event,
    "x-webhook-delivery": randomUUID(),
    "x-webhook-timestamp": String(Math.floor(Date.now() / 1000)),
    "x-webhook-signature": signWebhookBody(secret, body),
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
