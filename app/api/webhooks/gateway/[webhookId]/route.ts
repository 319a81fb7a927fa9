import type { TApiErrorBody } from "@/lib/auth/with-auth";
import { log } from "@/lib/log";
import { receiveGatewayDelivery } from "@/lib/webhooks/receive";

function errorResponse(status: number, code: string, message: string, retryAfterSeconds?: number): Response {
  const body: TApiErrorBody = { error: { code, message } };
  const headers = retryAfterSeconds === undefined ? undefined : { "retry-after": String(retryAfterSeconds) };
  return Response.json(body, { status, headers });
}

// POST /api/webhooks/gateway/[webhookId] – a signed delivery from the gateway. Public: no session;
// the HMAC signature with the secret of the webhook named by the path authenticates it.
export async function POST(request: Request, context: { params: Promise<{ webhookId: string }> }): Promise<Response> {
  try {
    const { webhookId } = await context.params;
    const result = await receiveGatewayDelivery(webhookId, request);
    if (result.status < 300) return Response.json({ received: true, outcome: result.outcome });
    const code = result.code ?? result.outcome;
    return errorResponse(result.status, code, result.problem ?? "Delivery refused.", result.retryAfterSeconds);
  } catch (error) {
    // Nothing could be stored (the database is down): a 5xx makes the gateway retry later.
    log.error({ err: error }, "webhook receiver failed");
    return errorResponse(500, "INTERNAL", "Something went wrong.");
  }
}
