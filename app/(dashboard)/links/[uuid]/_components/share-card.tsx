"use client";

import { DownloadIcon, MailIcon, MessageCircleIcon } from "lucide-react";
import { useTranslations } from "next-intl";

import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import type { TPaymentLinkView } from "@/lib/links/types";

import type { TShareTargets } from "./payment-link-live";

type ShareCardProps = {
  link: Pick<TPaymentLinkView, "linkPaymentUuid" | "paymentUrl" | "verificationCode">;
  /** PNG data URL of the hosted page's address, drawn on the server. */
  qrCodeDataUrl: string;
  share: TShareTargets;
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
          <label htmlFor="payment-url" className="text-sm font-medium">
            {t("url")}
          </label>
          <div className="flex items-center gap-2">
            <Input
              id="payment-url"
              readOnly
              value={link.paymentUrl}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 flex-1 bg-muted font-mono text-xs"
            />
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
          <span className="text-sm font-medium">{t("verificationCode")}</span>
          <div className="flex items-center gap-3">
            <code data-testid="verification-code" className="font-mono text-2xl font-semibold tracking-[0.3em]">
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
