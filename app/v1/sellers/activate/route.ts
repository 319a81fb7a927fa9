import { activateSeller } from "@/lib/pos/activation";
import { authenticatePosRequest } from "@/lib/pos/authenticate";
import { handlePos, posJson } from "@/lib/pos/errors";
import { readPosBody } from "@/lib/pos/request";
import { ZSellerActivationRequest } from "@/lib/pos/schemas";

// POST /v1/sellers/activate – called by POS devices with the tenant API key (Bearer), never with a session.
export async function POST(request: Request): Promise<Response> {
  return handlePos("activate", async (context) => {
    const caller = await authenticatePosRequest(request, context);
    const { sellerToken } = await readPosBody(request, ZSellerActivationRequest);
    const result = await activateSeller(caller, sellerToken);
    context.posId = result.posId;
    return posJson(result);
  });
}
