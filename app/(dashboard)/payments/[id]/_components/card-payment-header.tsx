import { useTranslations } from "next-intl";
import { LiveDetailHeader } from "@/components/live-detail-header";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import type { TCardPaymentView } from "@/lib/card-payments/views";

import { CancelCardPaymentButton } from "./cancel-card-payment-button";
import { RefreshCardPaymentButton } from "./refresh-card-payment-button";

export function CardPaymentHeader({ payment, mayCancel }: { payment: TCardPaymentView; mayCancel: boolean }) {
  const t = useTranslations("cardPayments.detail");
  return (
    <div className="grid gap-2 print:hidden">
      <LiveDetailHeader
        title={t("title")}
        status={
          <ResourceStatusBadge
            resource="cardPayment"
            status={payment.statusKind}
            label={payment.status}
            className="text-sm"
          />
        }
        statusTestId="card-payment-status"
        syncedAtLabel={t("syncedAt")}
        syncedAt={payment.syncedAt}
        pollFailingLabel=""
        isPollFailing={false}
        actions={
          <>
            <RefreshCardPaymentButton paymentId={payment.id} />
            <CancelCardPaymentButton
              paymentId={payment.id}
              amountCents={payment.amountCents}
              canCancel={payment.canCancel && mayCancel}
            />
          </>
        }
        backHref="/payments"
        backLabel={t("backToList")}
      />
      <p className="text-sm text-muted-foreground" data-testid="card-payment-status-meaning">
        {t(`statusMeaning.${payment.statusKind}`, { status: payment.status })}
      </p>
    </div>
  );
}
