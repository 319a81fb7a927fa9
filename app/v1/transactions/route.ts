import { authenticatePosRequest, takeKnownPosKey } from "@/lib/pos/authenticate";
import { handlePos } from "@/lib/pos/errors";
import { ingestTransactionReport } from "@/lib/pos/reports";
import { readPosBody } from "@/lib/pos/request";
import { ZTransactionReport } from "@/lib/pos/schemas";

// POST /v1/transactions – a sale report from a POS device (tenant API key, Bearer). 202 with no body, also for an
// identical repeat; a conflicting repeat is kept for review and answered 409.
export async function POST(request: Request): Promise<Response> {
  return handlePos("report", async (context) => {
    // A key this process has verified before is verified again in the report's statement: one round trip.
    const caller = takeKnownPosKey(request) ?? (await authenticatePosRequest(request, context));
    const report = await readPosBody(request, ZTransactionReport).catch(async (error: unknown) => {
      // The key is still refused before the body: a bad key with a bad body answers 401, as it always did.
      if (!("tenantId" in caller)) await authenticatePosRequest(request, context);
      throw error;
    });
    context.posId = report.posId;
    await ingestTransactionReport(caller, report, new Date(), context);
    return new Response(null, { status: 202, headers: { "cache-control": "no-store" } });
  });
}
