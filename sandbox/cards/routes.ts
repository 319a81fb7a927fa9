import { parseInput } from "../http/errors";
import { parsePaging, toPage } from "../http/paging";
import type { Router } from "../http/router";
import { cancelPayment, getPayment, listPayments, paymentSortFields, processCardPayment } from "./payments";
import { ZCardPaymentRequest, ZCreateCardRequest } from "./schemas";
import {
  createCard,
  getCardById,
  getCardByToken,
  listCards,
  setCardStatus,
  toCard,
  toCardLookup,
  toCardResult,
  toCardStatusResult,
} from "./tokens";

const cardSortFields = ["dataCriacao", "dataModificacao", "statusCard", "bandeiraCartao", "suffix"] as const;

/** Card payments (spec 4.1) and card tokens (4.2); errors use the 7.2 ErrorResponse. */
export function registerCardRoutes(router: Router): void {
  // POST /api/v1/payments – authorize a payment with a card number or a token
  router.add("POST", "/api/v1/payments", (ctx) => ({
    status: 201,
    body: processCardPayment(ctx.clientId, parseInput(ZCardPaymentRequest, ctx.body), { tokenize: false }),
  }));

  // POST /api/v1/payments/tokenize – authorize and keep a token of the card (returned as `token`)
  router.add("POST", "/api/v1/payments/tokenize", (ctx) => ({
    status: 201,
    body: processCardPayment(ctx.clientId, parseInput(ZCardPaymentRequest, ctx.body), { tokenize: true }),
  }));

  // GET /api/v1/payments – page of the client's payments, oldest first by default
  router.add("GET", "/api/v1/payments", (ctx) => ({
    status: 200,
    body: listPayments(ctx.clientId, parsePaging(ctx.query, paymentSortFields)),
  }));

  // GET /api/v1/payments/{id} – one payment
  router.add("GET", "/api/v1/payments/:id", (ctx) => ({
    status: 200,
    body: getPayment(ctx.clientId, ctx.params.id ?? ""),
  }));

  // PUT /api/v1/payments/{paymentId}/cancel – CON → CAN
  router.add("PUT", "/api/v1/payments/:paymentId/cancel", (ctx) => ({
    status: 200,
    body: cancelPayment(ctx.clientId, ctx.params.paymentId ?? ""),
  }));

  // POST /api/v1/cards – tokenize a card (200, as the spec says; 409 when already registered)
  router.add("POST", "/api/v1/cards", (ctx) => ({
    status: 200,
    body: toCardResult(createCard(ctx.clientId, parseInput(ZCreateCardRequest, ctx.body))),
  }));

  // GET /api/v1/cards – page of the client's cards, oldest first by default
  router.add("GET", "/api/v1/cards", (ctx) => {
    // Stored fields carry the sort field names; ISO date-times with one offset sort as text.
    const page = toPage(listCards(ctx.clientId), parsePaging(ctx.query, cardSortFields));
    return { status: 200, body: { ...page, content: page.content.map(toCard) } };
  });

  // GET /api/v1/cards/id/{id} – card result by id
  router.add("GET", "/api/v1/cards/id/:id", (ctx) => ({
    status: 200,
    body: toCardResult(getCardById(ctx.clientId, ctx.params.id ?? "")),
  }));

  // GET /api/v1/cards/{tokenCard} – lookup wrapper with the card
  router.add("GET", "/api/v1/cards/:tokenCard", (ctx) => ({
    status: 200,
    body: toCardLookup(getCardByToken(ctx.clientId, ctx.params.tokenCard ?? "")),
  }));

  // PUT /api/v1/cards/{tokenCard}/enable – INA → ATV
  router.add("PUT", "/api/v1/cards/:tokenCard/enable", (ctx) => ({
    status: 200,
    body: toCardStatusResult(setCardStatus(ctx.clientId, ctx.params.tokenCard ?? "", "ATV")),
  }));

  // PUT /api/v1/cards/{tokenCard}/disable – ATV → INA
  router.add("PUT", "/api/v1/cards/:tokenCard/disable", (ctx) => ({
    status: 200,
    body: toCardStatusResult(setCardStatus(ctx.clientId, ctx.params.tokenCard ?? "", "INA")),
  }));
}
