import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { formatDateTime, now } from "../clock";
import { notFound, parseInput } from "../http/errors";
import { tooLong, typeError } from "../http/fields";
import type { Router } from "../http/router";
import { transaction } from "../store/db";
import { type TStoredWebhook, toPublicWebhook, webhookEvents, webhooks } from "./store";

const ZWebhookUrl = z
  .string({ error: typeError("texto") })
  .max(500, tooLong(500))
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const protocol = new URL(value).protocol;
    return protocol === "http:" || protocol === "https:";
  }, "deve ser uma URL absoluta http ou https");

const ZWebhookEvents = z
  .array(z.enum(webhookEvents, { error: `evento inválido; use ${webhookEvents.join(", ")}` }), {
    error: typeError("lista"),
  })
  .min(1, "informe ao menos um evento")
  .transform((events) => [...new Set(events)]);

const ZRegisterWebhook = z.strictObject(
  { url: ZWebhookUrl, events: ZWebhookEvents },
  { error: "corpo JSON obrigatório" },
);
const ZUpdateWebhook = z.strictObject(
  { url: ZWebhookUrl, events: ZWebhookEvents, active: z.boolean({ error: typeError("booleano") }) },
  { error: "corpo JSON obrigatório" },
);

export function registerWebhookRoutes(router: Router): void {
  // POST /api/v1/webhooks – registers a webhook; the only answer that carries its secret.
  router.add("POST", "/api/v1/webhooks", (ctx) => {
    const input = parseInput(ZRegisterWebhook, ctx.body);
    const createdAtMs = now();
    const webhook: TStoredWebhook = {
      id: randomUUID(),
      url: input.url,
      events: input.events,
      active: true,
      createdAt: formatDateTime(createdAtMs),
      secret: `whsec_${randomBytes(24).toString("hex")}`,
    };
    webhooks.insert(ctx.clientId, webhook.id, createdAtMs, webhook);
    return { status: 201, body: webhook };
  });

  // PUT /api/v1/webhooks/{id} – replaces url, events and active; the secret stays.
  router.add("PUT", "/api/v1/webhooks/:id", (ctx) => {
    const input = parseInput(ZUpdateWebhook, ctx.body);
    const updated = transaction(() => {
      const webhook = webhooks.get(ctx.clientId, ctx.params.id ?? "");
      if (!webhook) throw notFound("Webhook não encontrado");
      const next = { ...webhook, ...input };
      webhooks.update(ctx.clientId, webhook.id, next);
      return next;
    });
    return { status: 200, body: toPublicWebhook(updated) };
  });

  // GET /api/v1/webhooks – every webhook of the client, unpaged, without secrets.
  router.add("GET", "/api/v1/webhooks", (ctx) => ({
    status: 200,
    body: webhooks.list(ctx.clientId).map(toPublicWebhook),
  }));
}
