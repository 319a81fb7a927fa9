import { ContactIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ListPageLayout } from "@/components/data-table/list-page-layout";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/auth/session";
import { findCustomers } from "@/lib/customers/customers";
import { customerForViewer } from "@/lib/customers/viewer";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";

import { CustomerFilters } from "../_components/customer-filters";
import { CustomersTable } from "../_components/customers-table";
import { loadCustomerSearchParams, serializeCustomerSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("customers");
  return { title: t("title") };
}

export default async function CustomersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePermission("payments.view");
  const values = await loadCustomerSearchParams(searchParams);
  const [result, t] = await Promise.all([findCustomers(toListFilters(values)), getTranslations("customers")]);
  const hasFilters = hasListFilters(values);

  return (
    <ListPageLayout
      liveKinds={["pix_charge", "payment_link"]}
      header={<PageHeader className="mb-0" title={t("title")} description={t("description")} />}
      filters={<CustomerFilters />}
      result={result}
      totalLabel={t("total", { count: result.total })}
      hrefForPage={(page) => serializeCustomerSearchParams("/customers", { ...values, page })}
    >
      <CustomersTable
        rows={result.rows.map((row) => customerForViewer(user, row))}
        empty={
          <EmptyState
            icon={ContactIcon}
            title={t("empty.title")}
            description={hasFilters ? t("empty.filtered") : t("empty.description")}
            action={
              <Button asChild variant="outline">
                <Link href="/pix">{t("empty.goToCharges")}</Link>
              </Button>
            }
          />
        }
      />
    </ListPageLayout>
  );
}
