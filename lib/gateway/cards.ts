import "server-only";
import { apiPath, gatewayRequest } from "./http";
import { codeRefusal } from "./refusal";
import {
  type TCreateCardRequest,
  type TListCardsQuery,
  ZCard,
  ZCardLookup,
  ZCardResult,
  ZCardStatusResult,
  ZCreateCardRequest,
  ZListCardsQuery,
} from "./schemas/card";
import { ZPageOf } from "./schemas/page";

const ZCardPage = ZPageOf(ZCard);

// POST /api/v1/cards – tokenizes a card (200); 409 when the client already registered it. Never retried.
export function createCard(body: TCreateCardRequest) {
  return gatewayRequest({
    operation: "cards.create",
    method: "POST",
    path: "/api/v1/cards",
    body,
    bodySchema: ZCreateCardRequest,
    schema: ZCardResult,
    refusal: codeRefusal,
  });
}

// GET /api/v1/cards/{tokenCard} – the lookup wrapper with `cartoes`.
export function getCardByToken(tokenCard: string) {
  return gatewayRequest({
    operation: "cards.get-by-token",
    method: "GET",
    path: apiPath`/api/v1/cards/${tokenCard}`,
    schema: ZCardLookup,
  });
}

// GET /api/v1/cards/id/{id}
export function getCardById(id: string) {
  return gatewayRequest({
    operation: "cards.get-by-id",
    method: "GET",
    path: apiPath`/api/v1/cards/id/${id}`,
    schema: ZCardResult,
  });
}

// GET /api/v1/cards – page envelope of cards.
export function listCards(query: TListCardsQuery = {}) {
  return gatewayRequest({
    operation: "cards.list",
    method: "GET",
    path: "/api/v1/cards",
    query,
    querySchema: ZListCardsQuery,
    schema: ZCardPage,
  });
}

// PUT /api/v1/cards/{tokenCard}/enable – INA → ATV; 409 when already enabled.
export function enableCard(tokenCard: string) {
  return gatewayRequest({
    operation: "cards.enable",
    method: "PUT",
    path: apiPath`/api/v1/cards/${tokenCard}/enable`,
    schema: ZCardStatusResult,
    refusal: codeRefusal,
  });
}

// PUT /api/v1/cards/{tokenCard}/disable – ATV → INA; 409 when already disabled.
export function disableCard(tokenCard: string) {
  return gatewayRequest({
    operation: "cards.disable",
    method: "PUT",
    path: apiPath`/api/v1/cards/${tokenCard}/disable`,
    schema: ZCardStatusResult,
    refusal: codeRefusal,
  });
}
