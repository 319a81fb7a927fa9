import { withAuth } from "@/lib/auth/with-auth";
import { AppError } from "@/lib/errors";
import { getPixChargeView } from "@/lib/pix/charges";
import { ZTxid } from "@/lib/pix/schemas";

// GET /api/pix/charges/[txid] – the charge page's data (PixChargeView); `?refresh=1` reads upstream first.
export const GET = withAuth<{ txid: string }>(
  async (request, { params }) => {
    const txid = ZTxid.safeParse(params.txid);
    if (!txid.success) throw new AppError("NOT_FOUND", "pix.errors.chargeNotFound");
    const refresh = new URL(request.url).searchParams.get("refresh") === "1";
    const view = await getPixChargeView(txid.data, { refresh });
    if (!view) throw new AppError("NOT_FOUND", "pix.errors.chargeNotFound");
    return Response.json(view, { headers: { "cache-control": "no-store" } });
  },
  { permission: "payments.view" },
);
