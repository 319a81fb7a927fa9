"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";

import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { PaymentLinkStatusBadge } from "@/components/payment-link-status-badge";
import { Button } from "@/components/ui/button";
import { paymentLinkStatusCodes, type PaymentLinkView } from "@/lib/links/types";

import { CancelLinkButton } from "./cancel-link-button";
import { PaymentLinkDetails, PaymentLinkOutcome } from "./payment-link-details";
import { ShareCard } from "./share-card";
import { usePaymentLink } from "./use-payment-link";

export type ShareTargets = { whatsappHref: string; emailHref: string };

type PaymentLinkLiveProps = { initialLink: PaymentLinkView; qrCodeDataUrl: string; share: ShareTargets };

/** The link page, kept current without a reload (see usePaymentLink). */
export function PaymentLinkLive({ initialLink, qrCodeDataUrl, share }: PaymentLinkLiveProps) {
  const t = useTranslations("links");
  const { link, isPollFailing } = usePaymentLink(initialLink);
  const isOpen = link.statusCode === paymentLinkStatusCodes.CREATED;

  return (
    <div className="grid gap-6">
      <PageHeader
        className="mb-0"
        title={
          <span className="flex flex-wrap items-center gap-3">
            {t("detail.title")}
            {/* Announced when it changes: staff may be on the phone with the payer. */}
            <span aria-live="polite" data-testid="payment-link-status">
              <PaymentLinkStatusBadge statusCode={link.statusCode} statusDescription={link.statusDescription} className="text-sm" />
            </span>
          </span>
        }
        description={
          <span className="flex flex-wrap gap-x-2">
            <span>{t("detail.syncedAt")}</span>
            <DateTime value={link.syncedAt} />
            {isPollFailing ? <span className="text-warning">{t("detail.pollFailing")}</span> : null}
          </span>
        }
        actions={
          <>
            <CancelLinkButton linkPaymentUuid={link.linkPaymentUuid} canCancel={link.canCancel} />
            <Button asChild variant="outline">
              <Link href="/links">{t("backToList")}</Link>
            </Button>
          </>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {isOpen ? <ShareCard link={link} qrCodeDataUrl={qrCodeDataUrl} share={share} /> : <PaymentLinkOutcome link={link} />}
        <PaymentLinkDetails link={link} />
      </div>
    </div>
  );
}
