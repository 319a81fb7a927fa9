import "server-only";
import { z } from "zod";
import { apiPath, gatewayRequest } from "./http";
import { type TCardPaymentRequest, ZCardPaymentRequest } from "./schemas/payment";
import {
  type TCreatePaymentLinkRequest,
  type TListPaymentLinksQuery,
  ZCreatePaymentLinkRequest,
  ZListPaymentLinksQuery,
  ZPaymentLink,
} from "./schemas/payment-link";

// POST /api/v1/link-payment – 200 with the link, status CREATED. Never retried.
export function createPaymentLink(body: TCreatePaymentLinkRequest) {
  return gatewayRequest({
    operation: "payment-links.create",
    method: "POST",
    path: "/api/v1/link-payment",
    body,
    bodySchema: ZCreatePaymentLinkRequest,
    schema: ZPaymentLink,
  });
}

// GET /api/v1/link-payment/{linkPaymentUuid}
export function getPaymentLink(linkPaymentUuid: string) {
  return gatewayRequest({
    operation: "payment-links.get",
    method: "GET",
    path: apiPath`/api/v1/link-payment/${linkPaymentUuid}`,
    schema: ZPaymentLink,
  });
}

// GET /api/v1/link-payment/check/{linkPaymentUuid}/{verificationCode} – 400 for a wrong code.
// The code is a secret of the payer: the log line shows the path without it.
export function verifyPaymentLink(linkPaymentUuid: string, verificationCode: string) {
  return gatewayRequest({
    operation: "payment-links.verify",
    method: "GET",
    path: apiPath`/api/v1/link-payment/check/${linkPaymentUuid}/${verificationCode}`,
    logPath: apiPath`/api/v1/link-payment/check/${linkPaymentUuid}/` + "[code]",
    schema: ZPaymentLink,
  });
}

// GET /api/v1/link-payment – a plain array (no paging) for the required period.
export function listPaymentLinks(query: TListPaymentLinksQuery) {
  return gatewayRequest({
    operation: "payment-links.list",
    method: "GET",
    path: "/api/v1/link-payment",
    query,
    querySchema: ZListPaymentLinksQuery,
    schema: z.array(ZPaymentLink),
  });
}

// PUT /api/v1/link-payment/confirm-payment/{linkPaymentUuid} – pays the link with card data.
// Success "not shown" in the spec: the sandbox answers 200 with the paid link. A refused card is a
// 422 whose 7.2 body also carries codigo/mensagem/merchantAdviceCode. Never retried.
export function confirmPaymentLink(linkPaymentUuid: string, body: TCardPaymentRequest) {
  return gatewayRequest({
    operation: "payment-links.confirm",
    method: "PUT",
    path: apiPath`/api/v1/link-payment/confirm-payment/${linkPaymentUuid}`,
    body,
    bodySchema: ZCardPaymentRequest,
    schema: ZPaymentLink,
  });
}

// PUT /api/v1/link-payment/{linkPaymentUuid}/cancel – success "not shown": the sandbox answers 200 with the cancelled link.
export function cancelPaymentLink(linkPaymentUuid: string) {
  return gatewayRequest({
    operation: "payment-links.cancel",
    method: "PUT",
    path: apiPath`/api/v1/link-payment/${linkPaymentUuid}/cancel`,
    schema: ZPaymentLink,
  });
}
