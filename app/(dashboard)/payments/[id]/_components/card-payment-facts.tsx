import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { CardRefusalAdvice } from "@/components/card-refusal-advice";
import { DateTime } from "@/components/date-time";
import { DetailItem, DetailsCard } from "@/components/detail-list";
import { Money } from "@/components/money";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { TCardPaymentView } from "@/lib/card-payments/views";

const dash = "—";

function Code({ value }: { value: string | null }) {
  return value ? <code className="font-mono text-xs break-all">{value}</code> : dash;
}

function When({ value }: { value: string | null }) {
  return value ? <DateTime value={value} /> : dash;
}

function Grid({ children }: { children: ReactNode }) {
  return <div className="grid gap-3 sm:grid-cols-2">{children}</div>;
}

/** The cancellation answer's own ids (2.4), as this app's cancel received them. */
function CancellationFacts({ cancellation }: { cancellation: NonNullable<TCardPaymentView["cancellation"]> }) {
  const t = useTranslations("cardPayments.detail");
  return (
    <DetailsCard title={t("cancellationTitle")}>
      <Grid>
        <DetailItem label={t("cancellationMessage")}>{cancellation.mensagem}</DetailItem>
        <DetailItem label={t("cancellationAuthorizationNumber")}>
          <Code value={cancellation.authorizationNumber} />
        </DetailItem>
        <DetailItem label={t("cancellationAcquirerTransactionId")}>
          <Code value={cancellation.acquirerTransactionId} />
        </DetailItem>
        <DetailItem label={t("cancellationEcommerceGatewayUsn")}>
          <Code value={cancellation.ecommerceGatewayUsn} />
        </DetailItem>
        <DetailItem label={t("cancellationHostUsn")}>
          <Code value={cancellation.hostUsn} />
        </DetailItem>
        <DetailItem label={t("cancellationTid")}>
          <Code value={cancellation.tid} />
        </DetailItem>
        <DetailItem label={t("cancellationIsHostCancel")}>
          <Code value={cancellation.isHostCancel} />
        </DetailItem>
      </Grid>
    </DetailsCard>
  );
}

/** Amount, card, authorization, NSUs, acquirer, dates and where the payment came from. */
export function CardPaymentFacts({ payment }: { payment: TCardPaymentView }) {
  const t = useTranslations("cardPayments.detail");
  const brand = payment.brand ? t(`brands.${payment.brand}`) : payment.brandCode;
  const paymentType =
    payment.paymentType && t.has(`paymentTypes.${payment.paymentType}`)
      ? t(`paymentTypes.${payment.paymentType}`)
      : payment.paymentType;

  return (
    <div className="grid gap-6 print:hidden">
      {payment.statusKind === "refused" ? (
        <Card role="region" aria-labelledby="card-payment-refusal-title">
          <CardHeader>
            <CardTitle id="card-payment-refusal-title">{t("refusal.title")}</CardTitle>
          </CardHeader>
          <CardContent>
            <CardRefusalAdvice
              codigo={payment.responseCode}
              mensagem={payment.responseMessage}
              merchantAdviceCode={payment.merchantAdviceCode}
            />
          </CardContent>
        </Card>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <DetailsCard title={t("paymentTitle")}>
          <DetailItem label={t("amount")}>
            <Money cents={payment.amountCents} className="text-2xl font-semibold" />
          </DetailItem>
          {payment.cancelledCents > 0 ? (
            <Grid>
              <DetailItem label={t("cancelledAmount")}>
                <Money cents={payment.cancelledCents} />
              </DetailItem>
              <DetailItem label={t("cancelledAt")}>
                <When value={payment.cancelledAt} />
              </DetailItem>
            </Grid>
          ) : null}
          <DetailItem label={t("card")}>
            {brand || payment.cardLastFour ? (
              <span data-testid="card-payment-card">
                {brand ?? t("unknownBrand")}
                {payment.cardLastFour ? (
                  <span className="ml-2 font-mono tabular-nums">•••• {payment.cardLastFour}</span>
                ) : null}
              </span>
            ) : (
              dash
            )}
          </DetailItem>
          <Grid>
            <DetailItem label={t("paymentType")}>{paymentType ?? dash}</DetailItem>
            <DetailItem label={t("installmentCount")}>{payment.installmentCount}</DetailItem>
          </Grid>
          <DetailItem label={t("paymentId")}>
            <Code value={payment.id} />
          </DetailItem>
          <DetailItem label={t("orderId")}>
            <Code value={payment.orderId} />
          </DetailItem>
          <Grid>
            <DetailItem label={t("origin")}>{t(`origins.${payment.origin}`)}</DetailItem>
            <DetailItem label={t("paymentLink")}>
              {payment.linkPaymentUuid ? (
                <Link href={`/links/${payment.linkPaymentUuid}`} className="font-mono text-xs break-all underline">
                  {payment.linkPaymentUuid}
                </Link>
              ) : (
                dash
              )}
            </DetailItem>
          </Grid>
        </DetailsCard>
        <DetailsCard title={t("authorizationTitle")}>
          <Grid>
            <DetailItem label={t("responseCode")}>
              <Code value={payment.responseCode} />
            </DetailItem>
            <DetailItem label={t("responseMessage")}>{payment.responseMessage}</DetailItem>
            <DetailItem label={t("authorizationNumber")}>
              <Code value={payment.authorizationNumber} />
            </DetailItem>
            <DetailItem label={t("authorizationCode")}>
              <Code value={payment.authorizationCode} />
            </DetailItem>
            <DetailItem label={t("hostUsn")}>
              <Code value={payment.hostUsn} />
            </DetailItem>
            <DetailItem label={t("gatewayUsn")}>
              <Code value={payment.gatewayUsn} />
            </DetailItem>
            <DetailItem label={t("ecommerceGatewayUsn")}>
              <Code value={payment.ecommerceGatewayUsn} />
            </DetailItem>
            <DetailItem label={t("merchantUsn")}>
              <Code value={payment.merchantUsn} />
            </DetailItem>
            <DetailItem label={t("acquirer")}>
              {payment.acquirerCode || payment.acquirerName
                ? [payment.acquirerCode, payment.acquirerName].filter(Boolean).join(" · ")
                : dash}
            </DetailItem>
            <DetailItem label={t("acquirerTransactionId")}>
              <Code value={payment.acquirerTransactionId} />
            </DetailItem>
            <DetailItem label={t("terminalId")}>
              <Code value={payment.terminalId} />
            </DetailItem>
            <DetailItem label={t("issuer")}>
              <Code value={payment.issuer} />
            </DetailItem>
            <DetailItem label={t("authorizerMerchantId")}>
              <Code value={payment.authorizerMerchantId} />
            </DetailItem>
            <DetailItem label={t("authorizerMessage")}>{payment.authorizerMessage ?? dash}</DetailItem>
            <DetailItem label={t("authorizedAt")}>
              <When value={payment.authorizedAt} />
            </DetailItem>
            <DetailItem label={t("paidAt")}>
              <When value={payment.paidAt} />
            </DetailItem>
          </Grid>
          <p className="text-xs text-muted-foreground">{t("timeZoneNote")}</p>
        </DetailsCard>
        {payment.cancellation ? <CancellationFacts cancellation={payment.cancellation} /> : null}
      </div>
    </div>
  );
}
