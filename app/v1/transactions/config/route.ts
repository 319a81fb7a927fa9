import { authenticatePosRequest } from "@/lib/pos/authenticate";
import { handlePos, PosApiError, posJson } from "@/lib/pos/errors";
import { describeZodIssue, ZTransactionConfigQuery } from "@/lib/pos/schemas";
import { resolveTransactionConfig } from "@/lib/pos/transaction-config";

// GET /v1/transactions/config?posId= – tenant API key (Bearer) only. The answer holds a secret
// (tokenRegistroTls) and must not be cached anywhere: no-store.
export async function GET(request: Request): Promise<Response> {
  return handlePos("config", async (context) => {
    const caller = await authenticatePosRequest(request, context);
    const input = { posId: new URL(request.url).searchParams.get("posId") ?? undefined };
    const query = ZTransactionConfigQuery.safeParse(input);
    if (!query.success) throw new PosApiError(422, "validation", describeZodIssue(query.error, input));
    context.posId = query.data.posId;
    return posJson(await resolveTransactionConfig(caller, query.data.posId));
  });
}
