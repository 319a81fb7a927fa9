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

// A refusal is a 201 too: GatewayRefusedError carries the refused transaction and merchantAdviceCode.
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

// Reading a refused payment is not an error: no refusal check here.
export function getPayment(id: string) {
  return gatewayRequest({
    operation: "payments.get",
    method: "GET",
    path: apiPath`/api/v1/payments/${id}`,
    schema: ZPaymentTransaction,
  });
}

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

export function cancelPayment(paymentId: string) {
  return gatewayRequest({
    operation: "payments.cancel",
    method: "PUT",
    path: apiPath`/api/v1/payments/${paymentId}/cancel`,
    schema: ZPaymentCancellation,
    refusal: codeRefusal,
  });
}
