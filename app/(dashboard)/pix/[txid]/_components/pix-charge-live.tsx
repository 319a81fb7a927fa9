"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";

import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { PixChargeStatusBadge } from "@/components/pix-charge-status-badge";
import { Button } from "@/components/ui/button";
import type { PixChargeView } from "@/lib/pix/types";

import { CancelChargeButton } from "./cancel-charge-button";
import { PixChargeDetails } from "./pix-charge-details";
import { PixPaymentCard } from "./pix-payment-card";
import { RefundsPanel } from "./refunds-panel";
import { usePixCharge } from "./use-pix-charge";

type PixChargeLiveProps = { initialCharge: PixChargeView; qrCodeDataUrl: string | null; isPaymentPushed: boolean };

/** The charge page, kept current without a reload (see usePixCharge). */
export function PixChargeLive({ initialCharge, qrCodeDataUrl, isPaymentPushed }: PixChargeLiveProps) {
  const t = useTranslations("pix");
  const { charge, isPollFailing } = usePixCharge(initialCharge, isPaymentPushed);

  return (
    <div className="grid gap-6">
      <PageHeader
        className="mb-0"
        title={
          <span className="flex flex-wrap items-center gap-3">
            {t("detail.title")}
            {/* Announced when it changes: the person may be looking at the payer, not the screen. */}
            <span aria-live="polite" data-testid="pix-charge-status">
              <PixChargeStatusBadge status={charge.status} className="text-sm" />
            </span>
          </span>
        }
        description={
          <span className="flex flex-wrap gap-x-2">
            <span>{t("detail.syncedAt")}</span>
            <DateTime value={charge.syncedAt} />
            {isPollFailing ? <span className="text-warning">{t("detail.pollFailing")}</span> : null}
          </span>
        }
        actions={
          <>
            <CancelChargeButton txid={charge.txid} canCancel={charge.canCancel} />
            <Button asChild variant="outline">
              <Link href="/pix">{t("backToList")}</Link>
            </Button>
          </>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PixPaymentCard charge={charge} qrCodeDataUrl={qrCodeDataUrl} />
        <PixChargeDetails charge={charge} />
      </div>
      <RefundsPanel charge={charge} />
    </div>
  );
}
