import type { PaymentLink } from "@/lib/generated/prisma/client";

// Upstream cannot tie a Pix charge to a payment link (4.3 confirms with card data only), so a link paid through
// its Pix charge stays CREATED upstream, by design. What settles it is the app's own record of that payment,
// kept apart from the mirrored status: a gateway read or a reconciliation that sees CREATED is not drift for such
// a link, and neither the hosted page nor the staff pages may offer it for payment again.

export type TPixSettlementFields = Pick<PaymentLink, "pixPaidTxid">;

/** Whether the link was paid through its Pix charge, whatever upstream's status says. */
export function isLinkSettledByPix(link: TPixSettlementFields): boolean {
  return link.pixPaidTxid !== null;
}
