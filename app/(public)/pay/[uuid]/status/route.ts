import { NextResponse } from "next/server";

import { hasPayAccess } from "@/lib/links/pay-access";
import { getPayPageLink, ZLinkPaymentUuid } from "@/lib/links/pay-page";

// GET /pay/{uuid}/status – the link's state for the payer's page while a Pix QR is on screen
// (polled): reading it also records a paid Pix charge on the link. Only for the verified payer
// (the link-scoped cookie); staff pages have their own live updates.
export async function GET(_request: Request, { params }: { params: Promise<{ uuid: string }> }) {
  const uuid = ZLinkPaymentUuid.safeParse((await params).uuid);
  const noStore = { "cache-control": "no-store" };
  if (!uuid.success || !(await hasPayAccess(uuid.data)))
    return NextResponse.json({ error: "UNAUTHENTICATED" }, { status: 401, headers: noStore });
  const link = await getPayPageLink(uuid.data);
  if (!link) return NextResponse.json({ error: "NOT_FOUND" }, { status: 404, headers: noStore });
  return NextResponse.json({ state: link.state }, { headers: noStore });
}
