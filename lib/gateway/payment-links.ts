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

export function getPaymentLink(linkPaymentUuid: string) {
  return gatewayRequest({
    operation: "payment-links.get",
    method: "GET",
    path: apiPath`/api/v1/link-payment/${linkPaymentUuid}`,
    schema: ZPaymentLink,
  });
}

// The verification code is the payer's secret: the log line shows the path without it.
export function verifyPaymentLink(linkPaymentUuid: string, verificationCode: string) {
  return gatewayRequest({
    operation: "payment-links.verify",
    method: "GET",
    path: apiPath`/api/v1/link-payment/check/${linkPaymentUuid}/${verificationCode}`,
    logPath: apiPath`/api/v1/link-payment/check/${linkPaymentUuid}/` + "[code]",
    schema: ZPaymentLink,
  });
}

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

// A refused card is a 422 whose 7.2 body also carries codigo/mensagem/merchantAdviceCode.
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

export function cancelPaymentLink(linkPaymentUuid: string) {
  return gatewayRequest({
    operation: "payment-links.cancel",
    method: "PUT",
    path: apiPath`/api/v1/link-payment/${linkPaymentUuid}/cancel`,
    schema: ZPaymentLink,
  });
}
