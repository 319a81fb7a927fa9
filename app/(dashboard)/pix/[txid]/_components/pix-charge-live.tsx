"use client";

import { useTranslations } from "next-intl";

import { LiveDetailHeader } from "@/components/live-detail-header";
import { PixChargeStatusBadge } from "@/components/pix-charge-status-badge";
import type { TPixChargeView } from "@/lib/pix/types";

import { CancelChargeButton } from "./cancel-charge-button";
import { PixChargeDetails } from "./pix-charge-details";
import { PixPaymentCard } from "./pix-payment-card";
import { RefundsPanel } from "./refunds-panel";
import { usePixCharge } from "./use-pix-charge";

type PixChargeLiveProps = { initialCharge: TPixChargeView; qrCodeDataUrl: string | null; isPaymentPushed: boolean };

/** The charge page, kept current without a reload (see usePixCharge). */
export function PixChargeLive({ initialCharge, qrCodeDataUrl, isPaymentPushed }: PixChargeLiveProps) {
  const t = useTranslations("pix");
  const { charge, isPollFailing } = usePixCharge(initialCharge, isPaymentPushed);

  return (
    <div className="grid gap-6">
      <LiveDetailHeader
        title={t("detail.title")}
        status={<PixChargeStatusBadge status={charge.status} className="text-sm" />}
        statusTestId="pix-charge-status"
        syncedAtLabel={t("detail.syncedAt")}
        syncedAt={charge.syncedAt}
        pollFailingLabel={t("detail.pollFailing")}
        isPollFailing={isPollFailing}
        actions={<CancelChargeButton txid={charge.txid} canCancel={charge.canCancel} />}
        backHref="/pix"
        backLabel={t("backToList")}
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PixPaymentCard charge={charge} qrCodeDataUrl={qrCodeDataUrl} />
        <PixChargeDetails charge={charge} />
      </div>
      <RefundsPanel charge={charge} />
    </div>
  );
}
