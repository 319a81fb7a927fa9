"use client";

import { useTranslations } from "next-intl";
import type { ComponentProps } from "react";

import { LiveDetailHeader } from "@/components/live-detail-header";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { TPixChargeView, TRefundApprovalView } from "@/lib/pix/types";

import { RefundApprovalList } from "../../_components/refund-approval-list";

import { CancelChargeButton } from "./cancel-charge-button";
import { PixChargeDetails } from "./pix-charge-details";
import { PixPaymentCard } from "./pix-payment-card";
import { RefundsPanel, type TRefundStepUp } from "./refunds-panel";
import { usePixCharge } from "./use-pix-charge";

type PixChargeLiveProps = {
  initialCharge: TPixChargeView;
  qrCodeDataUrl: string | null;
  isPaymentPushed: boolean;
  approvals: TRefundApprovalView[];
  viewer: ComponentProps<typeof RefundApprovalList>["viewer"];
  stepUp: TRefundStepUp;
  // What the viewer's role allows here; the actions check it again.
  may: { cancel: boolean; refund: boolean };
};

/** The charge page, kept current without a reload (see usePixCharge). */
export function PixChargeLive({
  initialCharge,
  qrCodeDataUrl,
  isPaymentPushed,
  approvals,
  viewer,
  stepUp,
  may,
}: PixChargeLiveProps) {
  const t = useTranslations("pix");
  const tApprovals = useTranslations("approvals");
  // An unexpired request waiting for approval holds its amount back from what the form may refund.
  const heldCents = approvals.filter((approval) => !approval.isExpired).reduce((sum, a) => sum + a.amountCents, 0);
  const { charge, isPollFailing } = usePixCharge(initialCharge, isPaymentPushed);

  return (
    <div className="grid gap-6">
      <LiveDetailHeader
        title={t("detail.title")}
        status={<ResourceStatusBadge resource="pixCharge" status={charge.status} className="text-sm" />}
        statusTestId="pix-charge-status"
        syncedAtLabel={t("detail.syncedAt")}
        syncedAt={charge.syncedAt}
        pollFailingLabel={t("detail.pollFailing")}
        isPollFailing={isPollFailing}
        actions={<CancelChargeButton txid={charge.txid} canCancel={charge.canCancel && may.cancel} />}
        backHref="/pix"
        backLabel={t("backToList")}
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PixPaymentCard charge={charge} qrCodeDataUrl={qrCodeDataUrl} />
        <PixChargeDetails charge={charge} />
      </div>
      {approvals.length > 0 ? (
        <Card role="region" aria-labelledby="refund-approvals-title">
          <CardHeader>
            <CardTitle id="refund-approvals-title">{tApprovals("chargeTitle")}</CardTitle>
            <CardDescription>{tApprovals("chargeDescription")}</CardDescription>
          </CardHeader>
          <CardContent>
            <RefundApprovalList approvals={approvals} viewer={viewer} isChargeShown={false} />
          </CardContent>
        </Card>
      ) : null}
      <RefundsPanel charge={charge} heldCents={heldCents} stepUp={stepUp} mayRefund={may.refund} />
    </div>
  );
}
