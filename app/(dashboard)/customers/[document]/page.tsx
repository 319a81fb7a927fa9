import { ArrowLeftIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { DateTime } from "@/components/date-time";
import { DetailItem, DetailsCard } from "@/components/detail-list";
import { LiveRefresh } from "@/components/live/live-refresh";
import { Money } from "@/components/money";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { requirePermission } from "@/lib/auth/session";
import { customerPaymentsLimit, getCustomer } from "@/lib/customers/customers";
import { customerDocumentOf } from "@/lib/customers/viewer";
import { documentFor, maskDocument } from "@/lib/security/personal-data";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

import { CustomerPaymentsTable } from "./_components/customer-payments-table";

type CustomerPageProps = { params: Promise<{ document: string }> };

export async function generateMetadata({ params }: CustomerPageProps): Promise<Metadata> {
  const t = await getTranslations("customers");
  // Masked for everyone: a tab's title goes into the browser's history.
  const document = customerDocumentOf((await params).document);
  return { title: document ? `${t("title")} · ${maskDocument(document)}` : t("title") };
}

// No loading.tsx on this route (the list's sits in the `(list)` group): notFound() must still answer 404.
export default async function CustomerPage({ params }: CustomerPageProps) {
  const user = await requirePermission("payments.view");
  const document = customerDocumentOf((await params).document);
  if (!document) notFound();
  const [detail, t] = await Promise.all([getCustomer(document), getTranslations("customers")]);
  if (!detail) notFound();
  const { customer, payments, isTruncated } = detail;
  const formattedDocument = documentFor(user, formatCpfOrCnpj(customer.document));

  return (
    <div className="grid gap-6">
      <LiveRefresh kinds={["pix_charge", "payment_link"]} />
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link href="/customers">
            <ArrowLeftIcon aria-hidden="true" />
            {t("detail.back")}
          </Link>
        </Button>
      </div>
      <PageHeader className="mb-0" title={customer.name ?? formattedDocument} description={formattedDocument} />
      <DetailsCard title={t("detail.summary")}>
        <div className="grid gap-3 sm:grid-cols-3">
          <DetailItem label={t("columns.total")}>
            <Money cents={customer.totalPaidCents} />
          </DetailItem>
          <DetailItem label={t("columns.count")}>{customer.paymentCount}</DetailItem>
          <DetailItem label={t("columns.lastPaid")}>
            <DateTime value={customer.lastPaidAt} />
          </DetailItem>
        </div>
      </DetailsCard>
      <section className="grid gap-3" aria-labelledby="customer-payments">
        <h2 id="customer-payments" className="text-lg font-semibold">
          {t("detail.payments")}
        </h2>
        {isTruncated ? (
          <p className="text-sm text-muted-foreground">{t("detail.truncated", { count: customerPaymentsLimit })}</p>
        ) : null}
        <CustomerPaymentsTable rows={payments} />
      </section>
    </div>
  );
}
