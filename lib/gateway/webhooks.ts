import "server-only";
import { z } from "zod";
import { apiPath, gatewayRequest } from "./http";
import {
  type TRegisterWebhookRequest,
  type TUpdateWebhookRequest,
  ZRegisteredWebhook,
  ZRegisterWebhookRequest,
  ZUpdateWebhookRequest,
  ZWebhook,
} from "./schemas/webhook";

export function registerWebhook(body: TRegisterWebhookRequest) {
  return gatewayRequest({
    operation: "webhooks.register",
    method: "POST",
    path: "/api/v1/webhooks",
    body,
    bodySchema: ZRegisterWebhookRequest,
    schema: ZRegisteredWebhook,
  });
}

export function updateWebhook(id: string, body: TUpdateWebhookRequest) {
  return gatewayRequest({
    operation: "webhooks.update",
    method: "PUT",
    path: apiPath`/api/v1/webhooks/${id}`,
    body,
    bodySchema: ZUpdateWebhookRequest,
    schema: ZWebhook,
  });
}

export function listWebhooks() {
  return gatewayRequest({
    operation: "webhooks.list",
    method: "GET",
    path: "/api/v1/webhooks",
    schema: z.array(ZWebhook),
  });
}
