"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";

import { DateTime } from "@/components/date-time";
import { DetailItem, DetailList } from "@/components/detail-list";
import { Money } from "@/components/money";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormError } from "@/components/ui/field";
import type { TActionError } from "@/lib/actions/define-action";
import type { TPixRefundPanel } from "@/lib/pix/types";

import { usePixErrorText } from "../../_components/use-pix-error-text";
import { RefundForm } from "./refund-form";
import { RefundsTable } from "./refunds-table";
import { useRefreshPixCharge } from "./use-pix-charge";

/** Above `thresholdCents` (0 = never) a refund needs the requester's code or a second admin. */
export type TRefundStepUp = { thresholdCents: number; hasTwoFactor: boolean };

type RefundsPanelProps = { charge: TPixRefundPanel; heldCents: number; stepUp: TRefundStepUp; mayRefund: boolean };

/** Amount paid, refunds so far, what remains and for how long, and the form to refund more. */
export function RefundsPanel({ charge, heldCents, stepUp, mayRefund }: RefundsPanelProps) {
  const t = useTranslations("pix.refunds");
  const { formText } = usePixErrorText();
  const router = useRouter();
  const refreshCharge = useRefreshPixCharge(charge.txid);
  const refundableCents = Math.max(0, charge.remainingRefundableCents - heldCents);
  // Kept here, not in the form: a refusal refreshes the charge, which may hide the form.
  const [error, setError] = useState<string | null>(null);
  if (!charge.payment) return null;
  const closesAt = charge.refundWindowClosesAt;

  async function handleRefunded(isPendingApproval: boolean) {
    setError(null);
    toast.success(isPendingApproval ? t("form.pending") : t("form.done"));
    // The held request is server-rendered: it appears in the "awaiting approval" card.
    if (isPendingApproval) router.refresh();
    await refreshCharge();
  }

  async function handleFailed(failure: TActionError) {
    // A refusal is worded for this panel first: the field-level wording would point at a form that may be gone.
    const refusals: Partial<Record<TActionError["code"], string>> = {
      UNPROCESSABLE: t("errors.exceedsRemaining"),
      CONFLICT: t("errors.notRefundable"),
    };
    setError(refusals[failure.code] ?? formText(failure));
    // After a timeout the refund may exist upstream: read the gateway before showing what is left.
    await refreshCharge({ fromGateway: failure.code === "UPSTREAM_TIMEOUT" });
  }

  return (
    <Card role="region" aria-labelledby="refunds-title">
      <CardHeader>
        <CardTitle id="refunds-title">{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <DetailList className="grid-cols-2 sm:grid-cols-4">
          <DetailItem label={t("paid")}>
            <Money cents={charge.payment.amountCents} />
          </DetailItem>
          <DetailItem label={t("refunded")}>
            <Money cents={charge.refundedCents} />
          </DetailItem>
          <DetailItem label={t("remaining")}>
            <Money cents={charge.remainingRefundableCents} className="text-base font-semibold" />
          </DetailItem>
          <DetailItem label={t("window")}>
            {charge.refundWindowDaysLeft > 0 && closesAt ? (
              <span className="flex flex-col">
                <span>{t.rich("windowUntil", { date: () => <DateTime value={closesAt} /> })}</span>
                <span className="text-xs text-muted-foreground">
                  {t("windowDaysLeft", { days: charge.refundWindowDaysLeft })}
                </span>
              </span>
            ) : closesAt ? (
              t.rich("windowClosedOn", { date: () => <DateTime value={closesAt} /> })
            ) : (
              t("windowClosed")
            )}
          </DetailItem>
        </DetailList>

        <RefundsTable rows={charge.refunds} empty={<p className="text-sm text-muted-foreground">{t("none")}</p>} />

        <FormError>{error}</FormError>
        {!mayRefund ? null : charge.canRefund ? (
          // Remounted when the remaining value changes: an amount typed against the old remainder is cleared.
          <RefundForm
            key={refundableCents}
            txid={charge.txid}
            remainingRefundableCents={refundableCents}
            countedCents={charge.refundedCents + heldCents}
            stepUp={stepUp}
            onRefunded={handleRefunded}
            onFailed={handleFailed}
          />
        ) : (
          <p role="status" className="rounded-md border bg-muted/50 px-3 py-2 text-sm">
            {charge.remainingRefundableCents === 0 ? t("fullyRefunded") : t("notRefundable")}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
