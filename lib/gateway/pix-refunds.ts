import "server-only";
import { apiPath, gatewayRequest } from "./http";
import { ZPageOf } from "./schemas/page";
import {
  type TListPixRefundsQuery,
  type TRequestPixRefundRequest,
  ZListPixRefundsQuery,
  ZPixRefund,
  ZRequestPixRefundRequest,
} from "./schemas/pix-refund";

const ZPixRefundPage = ZPageOf(ZPixRefund);

// 409: not refundable now; 422: above the remaining refundable value.
export function requestPixRefund(body: TRequestPixRefundRequest) {
  return gatewayRequest({
    operation: "pix-refunds.request",
    method: "POST",
    path: "/api/v1/pix-refunds",
    body,
    bodySchema: ZRequestPixRefundRequest,
    schema: ZPixRefund,
  });
}

export function getPixRefund(pixRefundId: string) {
  return gatewayRequest({
    operation: "pix-refunds.get",
    method: "GET",
    path: apiPath`/api/v1/pix-refunds/${pixRefundId}`,
    schema: ZPixRefund,
  });
}

export function listPixRefunds(query: TListPixRefundsQuery = {}) {
  return gatewayRequest({
    operation: "pix-refunds.list",
    method: "GET",
    path: "/api/v1/pix-refunds",
    query,
    querySchema: ZListPixRefundsQuery,
    schema: ZPixRefundPage,
  });
}
