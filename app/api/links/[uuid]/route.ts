import { withAuth } from "@/lib/auth/with-auth";
import { AppError } from "@/lib/errors";
import { getPaymentLinkView } from "@/lib/links/payment-links";
import { ZLinkPaymentUuid } from "@/lib/links/schemas";

// GET /api/links/[uuid] – the link page's data (PaymentLinkView, with the verification code: staff only); `?refresh=1` reads upstream first.
export const GET = withAuth<{ uuid: string }>(
  async (request, { params }) => {
    const uuid = ZLinkPaymentUuid.safeParse(params.uuid);
    if (!uuid.success) throw new AppError("NOT_FOUND", "links.errors.linkNotFound");
    const refresh = new URL(request.url).searchParams.get("refresh") === "1";
    const view = await getPaymentLinkView(uuid.data, { refresh });
    if (!view) throw new AppError("NOT_FOUND", "links.errors.linkNotFound");
    return Response.json(view, { headers: { "cache-control": "no-store" } });
  },
  { permission: "payments.view" },
);
