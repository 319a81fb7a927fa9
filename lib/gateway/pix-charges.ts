import "server-only";
import { apiPath, gatewayRequest } from "./http";
import { ZPageOf } from "./schemas/page";
import {
  type TCreatePixChargeRequest,
  type TListPixChargesQuery,
  ZCreatePixChargeRequest,
  ZListPixChargesQuery,
  ZPixCharge,
  ZPixChargeListItem,
} from "./schemas/pix-charge";

const ZPixChargePage = ZPageOf(ZPixChargeListItem);

export function createPixCharge(body: TCreatePixChargeRequest) {
  return gatewayRequest({
    operation: "pix-charges.create",
    method: "POST",
    path: "/api/v1/pix-charges",
    body,
    bodySchema: ZCreatePixChargeRequest,
    schema: ZPixCharge,
  });
}

export function getPixCharge(txid: string) {
  return gatewayRequest({
    operation: "pix-charges.get",
    method: "GET",
    path: apiPath`/api/v1/pix-charges/${txid}`,
    schema: ZPixCharge,
  });
}

export function listPixCharges(query: TListPixChargesQuery) {
  return gatewayRequest({
    operation: "pix-charges.list",
    method: "GET",
    path: "/api/v1/pix-charges",
    query,
    querySchema: ZListPixChargesQuery,
    schema: ZPixChargePage,
  });
}

export function cancelPixCharge(txid: string) {
  return gatewayRequest({
    operation: "pix-charges.cancel",
    method: "PUT",
    path: apiPath`/api/v1/pix-charges/${txid}/cancel`,
    schema: ZPixCharge,
  });
}
