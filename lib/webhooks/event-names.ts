// Pure, for client components; what each event does is its entry in ./event-kinds.ts.
export { type TWebhookEvent, webhookEvents } from "@/lib/gateway/schemas/webhook";
