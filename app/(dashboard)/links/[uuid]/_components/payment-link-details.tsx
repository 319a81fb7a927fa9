"use client";

import { BanIcon, CircleCheckIcon, ShieldAlertIcon, TimerOffIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";

import { CopyButton } from "@/components/copy-button";
import { DateTime } from "@/components/date-time";
import { DetailDates, DetailItem, DetailList, DetailsCard } from "@/components/detail-list";
import { Money } from "@/components/money";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { paymentLinkStatusCodes, type TPaymentLinkView } from "@/lib/links/types";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

function MethodNames({ codes }: { codes: number[] }) {
  const t = useTranslations("links.methods");
  return <>{codes.map((code) => (t.has(String(code)) ? t(String(code)) : String(code))).join(", ")}</>;
}

export function PaymentLinkDetails({ link }: { link: TPaymentLinkView }) {
  const t = useTranslations("links.detail");
  return (
    <DetailsCard title={t("detailsTitle")}>
      <DetailItem label={t("amount")}>
        <Money cents={link.amountCents} className="text-2xl font-semibold" />
      </DetailItem>
      <DetailItem label={t("installmentOptions")}>
        <ul className="grid gap-0.5 font-normal">
          {link.installmentOptions.map((option) => (
            <li key={option.installments} className="tabular-nums">
              {t("installmentOption", { count: option.installments })} <Money cents={option.amountCents} />
            </li>
          ))}
        </ul>
      </DetailItem>
      <DetailItem label={t("acceptedMethods")}>
        <MethodNames codes={link.acceptedMethodCodes} />
      </DetailItem>
      <DetailItem label={t("payer")}>
        {link.payer.name}
        <span className="block text-muted-foreground tabular-nums">
          {link.payer.isForeign
            ? `${link.payer.document} (${t("foreignDocument")})`
            : formatCpfOrCnpj(link.payer.document)}
        </span>
      </DetailItem>
      <DetailDates
        createdAtLabel={t("createdAt")}
        createdAt={link.createdAt}
        expiresAtLabel={t("expiresAt")}
        expiresAt={link.expiresAt}
      />
      <DetailItem label={t("description")}>{link.description ?? "—"}</DetailItem>
      <DetailItem label={t("userReference")}>{link.userReference ?? "—"}</DetailItem>
      <DetailItem label={t("uuid")}>
        <code className="font-mono text-xs break-all">{link.linkPaymentUuid}</code>
      </DetailItem>
    </DetailsCard>
  );
}

/** Why the hosted page refuses the payer something while the link is open (attempt limits). */
export function PayPageLocks({ link }: { link: TPaymentLinkView }) {
  const t = useTranslations("links.detail.locks");
  const messages = [
    link.verificationLock ? t("verification", { count: link.verificationLock.wrongCodes }) : null,
    link.cardLock
      ? t("card", { until: new Date(link.cardLock.lockedUntil), count: link.cardLock.refusedAttempts })
      : null,
  ].filter((message) => message !== null);
  if (messages.length === 0) return null;
  return (
    <div
      role="status"
      className="grid gap-2 rounded-md border border-warning/30 bg-warning-soft p-3 text-sm text-warning"
    >
      {messages.map((message) => (
        <p key={message} className="flex items-start gap-2">
          <ShieldAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {message}
        </p>
      ))}
    </div>
  );
}

/** Once the link is no longer open: the payment received, or why it can no longer be paid. */
export function PaymentLinkOutcome({ link }: { link: TPaymentLinkView }) {
  const t = useTranslations("links.detail");
  const methods = useTranslations("links.methods");
  if (link.payment) {
    const { payment } = link;
    const method =
      payment.methodCode !== null && methods.has(String(payment.methodCode))
        ? methods(String(payment.methodCode))
        : payment.methodDescription;
    return (
      <Card role="region" aria-labelledby="payment-title">
        <CardHeader>
          <CardTitle id="payment-title" className="flex items-center gap-2">
            <CircleCheckIcon className="size-5 text-success" aria-hidden="true" />
            {t("payment.title")}
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {payment.pixChargeTxid ? <p className="text-sm text-muted-foreground">{t("payment.paidByPix")}</p> : null}
          <DetailList className="sm:grid-cols-2">
            <DetailItem label={t("payment.method")}>{method ?? "—"}</DetailItem>
            {payment.pixChargeTxid ? (
              <DetailItem label={t("payment.pixCharge")}>
                <Link
                  href={`/pix/${encodeURIComponent(payment.pixChargeTxid)}`}
                  className="font-mono text-xs break-all underline underline-offset-4"
                  aria-label={`${t("payment.openPixCharge")}: ${payment.pixChargeTxid}`}
                >
                  {payment.pixChargeTxid}
                </Link>
              </DetailItem>
            ) : null}
            <DetailItem label={t("payment.paidAt")}>
              {payment.paidAt ? <DateTime value={payment.paidAt} /> : "—"}
            </DetailItem>
            <DetailItem label={t("payment.receipt")}>
              <span className="flex items-center gap-2">
                <code className="font-mono text-xs break-all">{payment.receipt ?? "—"}</code>
                {payment.receipt ? (
                  <CopyButton value={payment.receipt} label={t("payment.copyReceipt")} size="icon-sm" />
                ) : null}
              </span>
            </DetailItem>
            <DetailItem label={t("payment.transactionId")}>
              <span className="flex items-center gap-2">
                <code className="font-mono text-xs break-all">{payment.transactionId ?? "—"}</code>
                {payment.transactionId ? (
                  <CopyButton value={payment.transactionId} label={t("payment.copyTransactionId")} size="icon-sm" />
                ) : null}
              </span>
            </DetailItem>
          </DetailList>
        </CardContent>
      </Card>
    );
  }
  const state = link.statusCode === paymentLinkStatusCodes.CANCELLED ? "cancelled" : "expired";
  const Icon = state === "cancelled" ? BanIcon : TimerOffIcon;
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
