import { Undo2Icon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ListPageLayout } from "@/components/data-table/list-page-layout";
import { totalAmountLabel } from "@/components/data-table/total-amount-label";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { findPixRefunds } from "@/lib/pix/refunds";

import { PixRefundFilters } from "./_components/pix-refund-filters";
import { PixRefundsTable } from "./_components/pix-refunds-table";
import { loadPixRefundSearchParams, serializePixRefundSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("refunds");
  return { title: t("title") };
}

export default async function RefundsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePermission("payments.view");
  const values = await loadPixRefundSearchParams(searchParams);
  const [result, t] = await Promise.all([findPixRefunds(toListFilters(values)), getTranslations("refunds")]);
  const hasFilters = hasListFilters(values);

  return (
    <ListPageLayout
      liveKinds={["pix_refund"]}
      header={<PageHeader className="mb-0" title={t("title")} description={t("description")} />}
      filters={<PixRefundFilters />}
      result={result}
      totalLabel={t("total", { count: result.total })}
      exportEndpoint={can(user, "exports.download") ? "/api/exports/refunds" : undefined}
      totalAmountLabel={await totalAmountLabel(result.totalCents)}
      hrefForPage={(page) => serializePixRefundSearchParams("/refunds", { ...values, page })}
    >
      <PixRefundsTable
        rows={result.rows}
        empty={
          <EmptyState
            icon={Undo2Icon}
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
