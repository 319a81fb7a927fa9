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

// POST /api/v1/pix-charges – issues an immediate charge (201, ACTIVE, with the QR code). Never retried.
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

// GET /api/v1/pix-charges/{txid} – the full charge (404 for another client's).
export function getPixCharge(txid: string) {
  return gatewayRequest({
    operation: "pix-charges.get",
    method: "GET",
    path: apiPath`/api/v1/pix-charges/${txid}`,
    schema: ZPixCharge,
  });
}

// GET /api/v1/pix-charges – one page of list items (fewer fields than a read) for a creation period.
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

// PUT /api/v1/pix-charges/{txid}/cancel – CREATED/ACTIVE → `Cancelada`; 409 when paid, expired or cancelled.
export function cancelPixCharge(txid: string) {
  return gatewayRequest({
    operation: "pix-charges.cancel",
    method: "PUT",
    path: apiPath`/api/v1/pix-charges/${txid}/cancel`,
    schema: ZPixCharge,
  });
}
