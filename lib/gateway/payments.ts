import "server-only";
import { apiPath, gatewayRequest } from "./http";
import { codeRefusal, paymentRefusal } from "./refusal";
import { ZPageOf } from "./schemas/page";
import {
  type TCardPaymentRequest,
  type TListPaymentsQuery,
  ZCardPaymentRequest,
  ZListPaymentsQuery,
  ZPaymentCancellation,
  ZPaymentTransaction,
} from "./schemas/payment";

const ZPaymentPage = ZPageOf(ZPaymentTransaction);

// POST /api/v1/payments – 201 with the transaction; a refusal is a 201 too (GatewayRefusedError,
// carrying the refused transaction and merchantAdviceCode). Never retried.
export function createPayment(body: TCardPaymentRequest) {
  return gatewayRequest({
    operation: "payments.create",
    method: "POST",
    path: "/api/v1/payments",
    body,
    bodySchema: ZCardPaymentRequest,
    schema: ZPaymentTransaction,
    refusal: paymentRefusal,
  });
}

// POST /api/v1/payments/tokenize – pays and tokenizes the card in one flow. Never retried.
export function tokenizePayment(body: TCardPaymentRequest) {
  return gatewayRequest({
    operation: "payments.tokenize",
    method: "POST",
    path: "/api/v1/payments/tokenize",
    body,
    bodySchema: ZCardPaymentRequest,
    schema: ZPaymentTransaction,
    refusal: paymentRefusal,
  });
}

// GET /api/v1/payments/{id} – reading a refused payment is not an error: no refusal check here.
export function getPayment(id: string) {
  return gatewayRequest({
    operation: "payments.get",
    method: "GET",
    path: apiPath`/api/v1/payments/${id}`,
    schema: ZPaymentTransaction,
  });
}

// GET /api/v1/payments – page envelope of transactions.
export function listPayments(query: TListPaymentsQuery = {}) {
  return gatewayRequest({
    operation: "payments.list",
    method: "GET",
    path: "/api/v1/payments",
    query,
    querySchema: ZListPaymentsQuery,
    schema: ZPaymentPage,
  });
}

// PUT /api/v1/payments/{paymentId}/cancel – 409 when not cancellable; `valor` of the answer is cents as a string.
export function cancelPayment(paymentId: string) {
  return gatewayRequest({
    operation: "payments.cancel",
    method: "PUT",
    path: apiPath`/api/v1/payments/${paymentId}/cancel`,
    schema: ZPaymentCancellation,
    refusal: codeRefusal,
  });
}
