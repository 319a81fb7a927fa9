"use client";

import { DownloadIcon, MailIcon, MessageCircleIcon } from "lucide-react";
import { useTranslations } from "next-intl";

import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { PaymentLinkView } from "@/lib/links/types";

import type { ShareTargets } from "./payment-link-live";

type ShareCardProps = {
  link: Pick<PaymentLinkView, "linkPaymentUuid" | "paymentUrl" | "verificationCode">;
  /** PNG data URL of the hosted page's address, drawn on the server. */
  qrCodeDataUrl: string;
  share: ShareTargets;
};

/** What staff send the payer: the page's address (as text, QR, WhatsApp, e-mail), and the code apart. */
export function ShareCard({ link, qrCodeDataUrl, share }: ShareCardProps) {
  const t = useTranslations("links.share");
  return (
    <Card role="region" aria-labelledby="share-title">
      <CardHeader>
        <CardTitle id="share-title">{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-2">
          <span id="payment-url-label" className="text-sm font-medium">
            {t("url")}
          </span>
          <div className="flex items-center gap-2">
            <code
              aria-labelledby="payment-url-label"
              className="block min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all select-all"
            >
              {link.paymentUrl}
            </code>
            <CopyButton value={link.paymentUrl} label={t("copyUrl")} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <a href={share.whatsappHref} target="_blank" rel="noopener noreferrer">
                <MessageCircleIcon aria-hidden="true" />
                {t("whatsapp")}
              </a>
            </Button>
            <Button asChild variant="outline" size="sm">
              <a href={share.emailHref}>
                <MailIcon aria-hidden="true" />
                {t("email")}
              </a>
            </Button>
          </div>
        </div>

        <div className="grid justify-items-center gap-3 sm:justify-items-start">
          {/* A data URL drawn on the server: nothing for next/image to optimise. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img
            src={qrCodeDataUrl}
            alt={t("qrAlt")}
            width={224}
            height={224}
            className="size-56 rounded-md border bg-white p-2"
          />
          <Button asChild variant="outline" size="sm">
            <a href={qrCodeDataUrl} download={`link-${link.linkPaymentUuid}.png`}>
              <DownloadIcon aria-hidden="true" />
              {t("downloadQr")}
            </a>
          </Button>
        </div>

        <div className="grid gap-2 rounded-md border border-dashed p-4">
          <span id="verification-code-label" className="text-sm font-medium">
            {t("verificationCode")}
          </span>
          <div className="flex items-center gap-3">
            <code
              aria-labelledby="verification-code-label"
              data-testid="verification-code"
              className="font-mono text-2xl font-semibold tracking-[0.3em]"
            >
              {link.verificationCode}
            </code>
            <CopyButton value={link.verificationCode} label={t("copyCode")} />
          </div>
          <p className="text-sm text-muted-foreground">{t("verificationCodeHint")}</p>
        </div>
      </CardContent>
    </Card>
  );
}
