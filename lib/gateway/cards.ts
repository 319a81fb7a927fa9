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

// A token pays without the card, so it stays out of the logs (logPath).
export function getCardByToken(tokenCard: string) {
  return gatewayRequest({
    operation: "cards.get-by-token",
    method: "GET",
    path: apiPath`/api/v1/cards/${tokenCard}`,
    logPath: "/api/v1/cards/{tokenCard}",
    schema: ZCardLookup,
  });
}

export function getCardById(id: string) {
  return gatewayRequest({
    operation: "cards.get-by-id",
    method: "GET",
    path: apiPath`/api/v1/cards/id/${id}`,
    schema: ZCardResult,
  });
}

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

export function enableCard(tokenCard: string) {
  return gatewayRequest({
    operation: "cards.enable",
    method: "PUT",
    path: apiPath`/api/v1/cards/${tokenCard}/enable`,
    logPath: "/api/v1/cards/{tokenCard}/enable",
    schema: ZCardStatusResult,
    refusal: codeRefusal,
  });
}

export function disableCard(tokenCard: string) {
  return gatewayRequest({
    operation: "cards.disable",
    method: "PUT",
    path: apiPath`/api/v1/cards/${tokenCard}/disable`,
    logPath: "/api/v1/cards/{tokenCard}/disable",
    schema: ZCardStatusResult,
    refusal: codeRefusal,
  });
}
