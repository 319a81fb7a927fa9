// The event names a webhook can subscribe to (spec 6.1), for pages and forms. Pure: client
// components import it. What each event does in the app is its entry in ./event-kinds.ts.
export { type TWebhookEvent, webhookEvents } from "@/lib/gateway/schemas/webhook";
