"use client";

import { useTranslations } from "next-intl";

import { LiveDetailHeader } from "@/components/live-detail-header";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import { paymentLinkStatusCodes, type TPaymentLinkView } from "@/lib/links/types";

import { CancelLinkButton } from "./cancel-link-button";
import { LinkPixRefundDue } from "./link-pix-refund-due";
import { PaymentLinkDetails, PaymentLinkOutcome, PayPageLocks } from "./payment-link-details";
import { ShareCard } from "./share-card";
import { usePaymentLink } from "./use-payment-link";

export type TShareTargets = { whatsappHref: string; emailHref: string };

type PaymentLinkLiveProps = {
  initialLink: TPaymentLinkView;
  qrCodeDataUrl: string;
  share: TShareTargets;
  // What the viewer's role allows here; the actions check it again.
  may: { cancel: boolean; refund: boolean };
};

/** The link page, kept current without a reload (see usePaymentLink). */
export function PaymentLinkLive({ initialLink, qrCodeDataUrl, share, may }: PaymentLinkLiveProps) {
  const t = useTranslations("links");
  const { link, isPollFailing } = usePaymentLink(initialLink);
  const isOpen = link.statusCode === paymentLinkStatusCodes.CREATED;

  return (
    <div className="grid gap-6">
      <LiveDetailHeader
        title={t("detail.title")}
        status={
          <ResourceStatusBadge
            resource="paymentLink"
            status={link.statusCode}
            label={link.statusDescription}
            className="text-sm"
          />
        }
        statusTestId="payment-link-status"
        syncedAtLabel={t("detail.syncedAt")}
        syncedAt={link.syncedAt}
        pollFailingLabel={t("detail.pollFailing")}
        isPollFailing={isPollFailing}
        actions={<CancelLinkButton linkPaymentUuid={link.linkPaymentUuid} canCancel={link.canCancel && may.cancel} />}
        backHref="/links"
        backLabel={t("backToList")}
      />
      <PayPageLocks link={link} />
      {may.refund ? <LinkPixRefundDue link={link} /> : null}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {isOpen ? (
          <ShareCard link={link} qrCodeDataUrl={qrCodeDataUrl} share={share} />
        ) : (
          <PaymentLinkOutcome link={link} />
        )}
        <PaymentLinkDetails link={link} />
      </div>
    </div>
  );
}
