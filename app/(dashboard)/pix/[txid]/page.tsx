import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import QRCode from "qrcode";
import { refundLimitOf } from "@/lib/approvals/money-policy";

import { getApproverStanding } from "@/lib/auth/independent-approver";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { getTwoFactorStatus } from "@/lib/auth/two-factor";
import { db } from "@/lib/db/client";
import { getPixChargeView } from "@/lib/pix/charges";
import { findPendingRefundApprovals } from "@/lib/pix/refund-approvals";
import { ZTxid } from "@/lib/pix/schemas";
import { isReceivingEvent } from "@/lib/webhooks/subscriptions";

import { PixChargeLive } from "./_components/pix-charge-live";

type PixChargePageProps = { params: Promise<{ txid: string }> };

export async function generateMetadata({ params }: PixChargePageProps): Promise<Metadata> {
  const t = await getTranslations("pix.detail");
  return { title: t("metaTitle", { txid: (await params).txid.slice(0, 12) }) };
}

// The QR image carries exactly the copy-and-paste code (the BR Code), so it is drawn here from
// that text rather than stored or passed around as upstream's base64 PNG.
function toQrCodeDataUrl(pixCopyAndPaste: string): Promise<string> {
  return QRCode.toDataURL(pixCopyAndPaste, { errorCorrectionLevel: "M", margin: 2, width: 576 });
}

// No loading.tsx on this route (the list's sits in the `(list)` group): a loading boundary would
// start a 200 response before notFound() could answer 404 for an unknown txid.
export default async function PixChargePage({ params }: PixChargePageProps) {
  const user = await requirePermission("payments.view");
  const txid = ZTxid.safeParse((await params).txid);
  if (!txid.success) notFound();
  const charge = await getPixChargeView(txid.data);
  if (!charge) notFound();
  const [qrCodeDataUrl, isPaymentPushed, approvals, thresholdCents, twoFactor, standing] = await Promise.all([
    charge.isPayable && charge.pixCopyAndPaste ? toQrCodeDataUrl(charge.pixCopyAndPaste) : null,
    isReceivingEvent("pix_charge.paid"),
    findPendingRefundApprovals({ txid: txid.data }),
    refundLimitOf(db, user.id),
    getTwoFactorStatus(user.id),
    getApproverStanding(user.id, "refunds.approve"),
  ]);
  return (
    <PixChargeLive
      initialCharge={charge}
      qrCodeDataUrl={qrCodeDataUrl}
      isPaymentPushed={isPaymentPushed}
      approvals={approvals}
      viewer={{
        id: user.id,
        mayDecide: can(user, "refunds.approve"),
        approverBlock: standing.canApprove ? undefined : standing.reason,
      }}
      stepUp={{ thresholdCents, hasTwoFactor: twoFactor.enabledAt !== null }}
      may={{ cancel: can(user, "pix.charge"), refund: can(user, "refunds.request") }}
    />
  );
}
