import { config } from "../config";
import { parseInput } from "../http/errors";
import { parsePaging, toPage } from "../http/paging";
import type { Router } from "../http/router";
import {
  cancelCharge,
  createCharge,
  getCharge,
  listCharges,
  type TStoredCharge,
  toApiCharge,
  toApiChargeListItem,
} from "./charges";
import { getRefund, requestRefund } from "./refunds";
import { listRefunds, type TPixRefund, toApiRefund } from "./refunds-store";
import { queryObject, ZCreateCharge, ZListChargesQuery, ZListRefundsQuery, ZRequestRefund } from "./schemas";

const chargeSortKeys: Record<string, (charge: TStoredCharge) => string | number | null> = {
  txid: (charge) => charge.txid,
  amount: (charge) => charge.amountCents,
  status: (charge) => charge.status,
  creationDate: (charge) => charge.createdAtMs,
  expirationDate: (charge) => charge.createdAtMs + charge.expiration * 1000,
  description: (charge) => charge.description,
  userReference: (charge) => charge.userReference,
};

const refundSortKeys: Record<string, (refund: TPixRefund) => string | number | null> = {
  amount: (refund) => refund.amountCents,
  status: (refund) => refund.statusCode,
  creationDate: (refund) => refund.createdMs,
  updatedAt: (refund) => refund.updatedMs,
  settlementDate: (refund) => refund.settledMs,
  pixChargeTxid: (refund) => refund.pixChargeTxid,
};

export function registerPixRoutes(router: Router): void {
  // POST /api/v1/pix-charges – creates an immediate charge, ACTIVE, with BR Code and QR PNG.
  router.add("POST", "/api/v1/pix-charges", (ctx) => {
    const input = parseInput(ZCreateCharge, ctx.body);
    const charge = createCharge(ctx.clientId, {
      amountCents: input.amount,
      expiration: input.expiration,
      debtor: input.debtor ?? null,
      description: input.description ?? null,
      userReference: input.userReference ?? null,
    });
    return { status: 201, body: toApiCharge(ctx.clientId, charge, []) };
  });

  // GET /api/v1/pix-charges/{txid} – one charge of the client (expired ones show EXPIRED).
  router.add("GET", "/api/v1/pix-charges/:txid", (ctx) => ({
    status: 200,
    body: toApiCharge(ctx.clientId, getCharge(ctx.clientId, ctx.params.txid ?? "")),
  }));

  // GET /api/v1/pix-charges – page of list items created between initialDate and endDate.
  router.add("GET", "/api/v1/pix-charges", (ctx) => {
    const paging = parsePaging(ctx.query, Object.keys(chargeSortKeys));
    const filters = parseInput(ZListChargesQuery, queryObject(ctx.query, Object.keys(ZListChargesQuery.shape)));
    const matching = listCharges(ctx.clientId, { fromMs: filters.initialDate, toMs: filters.endDate }).filter(
      (charge) =>
        (filters.status === undefined || charge.status === filters.status) &&
        (filters.naturalPersonIdentification === undefined ||
          charge.debtor?.naturalPersonIdentification === filters.naturalPersonIdentification) &&
        (filters.legalPersonIdentification === undefined ||
          charge.debtor?.legalPersonIdentification === filters.legalPersonIdentification) &&
        (filters.userReference === undefined || charge.userReference === filters.userReference),
    );
    const page = toPage(matching, paging, chargeSortKeys);
    return { status: 200, body: { ...page, content: page.content.map(toApiChargeListItem) } };
  });

  // PUT /api/v1/pix-charges/{txid}/cancel – ACTIVE or CREATED → "Cancelada"; 409 otherwise.
  router.add("PUT", "/api/v1/pix-charges/:txid/cancel", (ctx) => ({
    status: 200,
    body: toApiCharge(ctx.clientId, cancelCharge(ctx.clientId, ctx.params.txid ?? "")),
  }));

  // POST /api/v1/pix-refunds – refunds part or all of a paid charge (201, PROCESSING).
  router.add("POST", "/api/v1/pix-refunds", (ctx) => {
    const input = parseInput(ZRequestRefund, ctx.body);
    const refund = requestRefund(ctx.clientId, {
      txid: input.txid,
      amountCents: input.amount,
      description: input.description ?? null,
      userReference: input.userReference ?? null,
      sendWebhook: input.sendWebhook ?? false,
    });
    return { status: 201, body: toApiRefund(refund) };
  });

  // GET /api/v1/pix-refunds/{pixRefundId}
  router.add("GET", "/api/v1/pix-refunds/:pixRefundId", (ctx) => ({
    status: 200,
    body: toApiRefund(getRefund(ctx.clientId, ctx.params.pixRefundId ?? "")),
  }));

  // GET /api/v1/pix-refunds – page of refunds, every filter optional.
  router.add("GET", "/api/v1/pix-refunds", (ctx) => {
    const paging = parsePaging(ctx.query, Object.keys(refundSortKeys));
    const filters = parseInput(ZListRefundsQuery, queryObject(ctx.query, Object.keys(ZListRefundsQuery.shape)));
    const matching = listRefunds(ctx.clientId, {
      fromMs: filters.initialDate ?? Number.MIN_SAFE_INTEGER,
      toMs: filters.endDate ?? Number.MAX_SAFE_INTEGER,
    }).filter(
      (refund) =>
        (filters.pixChargeTxid === undefined || refund.pixChargeTxid === filters.pixChargeTxid) &&
        (filters.status === undefined || refund.statusCode === filters.status),
    );
    const page = toPage(matching, paging, refundSortKeys);
    const omitsUserReference = config().refundListUserReference === "omit";
    const content = page.content.map((refund) => {
      const { userReference, ...item } = toApiRefund(refund);
      return omitsUserReference ? item : { ...item, userReference };
    });
    return { status: 200, body: { ...page, content } };
  });
}
