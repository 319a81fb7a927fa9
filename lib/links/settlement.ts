import type { PaymentLink } from "@/lib/generated/prisma/client";

// Upstream cannot tie a Pix charge to a link (4.3 is card-only), so a link paid by Pix stays CREATED upstream by design:
// the app's own record settles it, a read that sees CREATED is no drift, and no page may offer it for payment again.

export type TPixSettlementFields = Pick<PaymentLink, "pixPaidTxid">;

export function isLinkSettledByPix(link: TPixSettlementFields): boolean {
  return link.pixPaidTxid !== null;
}
