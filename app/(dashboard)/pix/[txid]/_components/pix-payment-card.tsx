"use client";

import { BanIcon, CircleCheckIcon, HourglassIcon, TimerOffIcon } from "lucide-react";
import { useTranslations } from "next-intl";

import { CopyButton } from "@/components/copy-button";
import { DateTime } from "@/components/date-time";
import { DetailItem, DetailList } from "@/components/detail-list";
import { Money } from "@/components/money";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Textarea } from "@/components/ui/textarea";
import type { TPixChargeView } from "@/lib/pix/types";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

import { ExpiryCountdown } from "./expiry-countdown";

type PixPaymentCardProps = {
  charge: TPixChargeView;
  /** The QR image of `pixCopyAndPaste`, drawn on the server when the page loaded. */
  qrCodeDataUrl: string | null;
};

/** What the payer needs while the charge can be paid; what was received once it is paid. */
export function PixPaymentCard({ charge, qrCodeDataUrl }: PixPaymentCardProps) {
  const t = useTranslations("pix.detail");

  if (charge.payment) {
    const { payment } = charge;
    return (
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <CircleCheckIcon className="size-5 text-success" aria-hidden="true" />
            {t("payment.title")}
          </CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList className="sm:grid-cols-2">
            <DetailItem label={t("payment.amount")}>
              <Money cents={payment.amountCents} className="font-semibold" />
            </DetailItem>
            <DetailItem label={t("payment.paidAt")}>
              {payment.paidAt ? <DateTime value={payment.paidAt} /> : "—"}
            </DetailItem>
            <DetailItem label={t("payment.payerName")}>{payment.payerName ?? "—"}</DetailItem>
            <DetailItem label={t("payment.payerDocument")}>
              <span className="tabular-nums">
                {payment.payerDocument ? formatCpfOrCnpj(payment.payerDocument) : "—"}
              </span>
            </DetailItem>
            <DetailItem label={t("payment.endToEndId")} className="sm:col-span-2">
              <span className="flex items-center gap-2">
                <code className="font-mono text-xs break-all">{payment.endToEndId}</code>
                <CopyButton value={payment.endToEndId} label={t("payment.copyEndToEndId")} size="icon-sm" />
              </span>
            </DetailItem>
          </DetailList>
        </CardContent>
      </Card>
    );
  }

  if (charge.isPayable && charge.pixCopyAndPaste) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>{t("payWithPix")}</CardTitle>
          <CardDescription>{t("payWithPixHint")}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {qrCodeDataUrl ? (
            // A data URL drawn on the server: nothing for next/image to optimise.
            <img
              src={qrCodeDataUrl}
              alt={t("qrAlt")}
              width={288}
              height={288}
              className="mx-auto size-72 rounded-md border bg-white p-2"
            />
          ) : null}
          <div className="flex items-center justify-center gap-3 text-sm">
            <span className="text-muted-foreground">{t("expiresInLabel")}</span>
            <ExpiryCountdown expiresAt={charge.expiresAt} />
          </div>
          <div className="grid gap-2">
            <label htmlFor="pix-copy-and-paste" className="text-sm font-medium">
              {t("copyAndPaste")}
            </label>
            <Textarea
              id="pix-copy-and-paste"
              readOnly
              rows={4}
              value={charge.pixCopyAndPaste}
              onFocus={(event) => event.currentTarget.select()}
              className="resize-none bg-muted font-mono text-xs break-all"
            />
            <CopyButton value={charge.pixCopyAndPaste} label={t("copyCode")} isLabelVisible className="w-fit" />
          </div>
        </CardContent>
      </Card>
    );
  }

  // Spec 3.4: `Cancelada` is the cancelled status, in Portuguese, compared exactly.
  const state = charge.status === "Cancelada" ? "cancelled" : charge.status === "EXPIRED" ? "expired" : "notReady";
  const Icon = state === "cancelled" ? BanIcon : state === "expired" ? TimerOffIcon : HourglassIcon;
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-8 text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Icon className="size-6" aria-hidden="true" />
        </div>
        <h2 className="text-base font-semibold">{t(`${state}.title`)}</h2>
        <p className="max-w-sm text-sm text-muted-foreground">{t(`${state}.description`)}</p>
      </CardContent>
    </Card>
  );
}
