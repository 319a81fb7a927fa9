import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LiveRefresh } from "@/components/live/live-refresh";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { findCardPaymentAuditTrail, getCardPaymentView } from "@/lib/card-payments/detail";
import { ZCardPaymentId } from "@/lib/card-payments/schemas";

import { CardPaymentAuditTrail } from "./_components/card-payment-audit-trail";
import { CardPaymentFacts } from "./_components/card-payment-facts";
import { CardPaymentHeader } from "./_components/card-payment-header";
import { CardPaymentInstallments } from "./_components/card-payment-installments";
import { CardPaymentReceipts } from "./_components/card-payment-receipts";

type CardPaymentPageProps = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: CardPaymentPageProps): Promise<Metadata> {
  const t = await getTranslations("cardPayments.detail");
  return { title: t("metaTitle", { id: (await params).id.slice(0, 8) }) };
}

// No loading.tsx on this route: a loading boundary would start a 200 response before notFound() could answer 404.
export default async function CardPaymentPage({ params }: CardPaymentPageProps) {
  const user = await requirePermission("payments.view");
  const id = ZCardPaymentId.safeParse((await params).id);
  if (!id.success) notFound();
  // A payment the mirror does not know is read from the gateway once (made elsewhere) before a 404.
  const payment = await getCardPaymentView(id.data);
  if (!payment) notFound();
  const auditTrail = await findCardPaymentAuditTrail(payment.id);

  return (
    <div className="grid gap-6">
      {/* A cancel made in another tab or by someone else shows here without a reload. */}
      <LiveRefresh kinds={["card_payment"]} id={payment.id} />
      <CardPaymentHeader payment={payment} mayCancel={can(user, "cards.cancel")} />
      <CardPaymentFacts payment={payment} />
      <CardPaymentInstallments payment={payment} />
      <CardPaymentReceipts
        customerReceipt={payment.customerReceipt}
        merchantReceipt={payment.merchantReceipt}
        cancellationCustomerReceipt={payment.cancellation?.customerReceipt}
        cancellationMerchantReceipt={payment.cancellation?.merchantReceipt}
      />
      <CardPaymentAuditTrail entries={auditTrail} paymentId={payment.id} canOpenAuditLog={can(user, "audit.view")} />
    </div>
  );
}
