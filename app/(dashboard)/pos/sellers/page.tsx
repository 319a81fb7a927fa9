import { StoreIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { requirePermission } from "@/lib/auth/session";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { findPosSellers } from "@/lib/pos/admin-sellers";

import { PosSellerFilters } from "../_components/pos-seller-filters";
import { PosSellersTable } from "../_components/pos-sellers-table";
import { PosTabs } from "../_components/pos-tabs";
import { loadPosSellerSearchParams, serializePosSellerSearchParams } from "../search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos.sellers");
  return { title: t("title") };
}

export default async function PosSellersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission("pos.manage");
  const values = await loadPosSellerSearchParams(searchParams);
  const [t, result] = await Promise.all([getTranslations("pos"), findPosSellers(toListFilters(values))]);
  const empty = (
    <EmptyState
      icon={StoreIcon}
      title={t("sellers.empty.title")}
      description={hasListFilters(values) ? t("sellers.empty.filtered") : t("sellers.empty.description")}
    />
  );

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div>
        <PageHeader title={t("sellers.title")} description={t("sellers.description")} />
        <PosTabs active="sellers" />
      </div>
      <PosSellerFilters />
      {result.rows.length === 0 ? (
        empty
      ) : (
        <>
          <PosSellersTable rows={result.rows} empty={empty} />
          <p className="text-sm text-muted-foreground">{t("total", { count: result.total })}</p>
          <Pagination
            page={result.page}
            pageCount={result.pageCount}
            hrefForPage={(page) => serializePosSellerSearchParams("/pos/sellers", { ...values, page })}
          />
        </>
      )}
    </div>
  );
}
