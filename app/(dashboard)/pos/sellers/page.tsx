import { StoreIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { StatusBadge } from "@/components/status-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requireAdmin } from "@/lib/auth/session";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { findPosSellers } from "@/lib/pos/admin-sellers";

import { PosSellerFilters } from "../_components/pos-seller-filters";
import { PosTabs } from "../_components/pos-tabs";
import { loadPosSellerSearchParams, serializePosSellerSearchParams } from "../search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos.sellers");
  return { title: t("title") };
}

export default async function PosSellersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin();
  const values = await loadPosSellerSearchParams(searchParams);
  const [t, result] = await Promise.all([getTranslations("pos"), findPosSellers(toListFilters(values))]);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div>
        <PageHeader title={t("sellers.title")} description={t("sellers.description")} />
        <PosTabs active="sellers" />
      </div>
      <PosSellerFilters />
      {result.rows.length === 0 ? (
        <EmptyState
          icon={StoreIcon}
          title={t("sellers.empty.title")}
          description={hasListFilters(values) ? t("sellers.empty.filtered") : t("sellers.empty.description")}
        />
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("sellers.columns.seller")}</TableHead>
                <TableHead>{t("sellers.columns.subEstablishmentRef")}</TableHead>
                <TableHead>{t("sellers.columns.status")}</TableHead>
                <TableHead>{t("sellers.columns.devices")}</TableHead>
                <TableHead>{t("sellers.columns.activatedAt")}</TableHead>
                <TableHead>{t("sellers.columns.lastReportAt")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {result.rows.map((seller) => (
                <TableRow key={seller.id}>
                  <TableCell>
                    <Link
                      href={`/pos/sellers/${encodeURIComponent(seller.id)}`}
                      className="font-mono text-xs font-medium underline-offset-4 hover:underline"
                    >
                      {seller.id}
                    </Link>
                    <div className="text-xs text-muted-foreground">{seller.reference}</div>
                  </TableCell>
                  <TableCell className="font-mono text-xs">{seller.subEstablishmentRef}</TableCell>
                  <TableCell>
                    <StatusBadge status={seller.status} toneByStatus={{ ACTIVE: "success", BLOCKED: "danger" }}>
                      {t(`sellers.status.${seller.status}`)}
                    </StatusBadge>
                  </TableCell>
                  <TableCell className="text-xs">
                    {t("sellers.deviceCount", {
                      count: seller.devices.length,
                      blocked: seller.devices.filter((device) => device.status === "BLOCKED").length,
                    })}
                    <ul className="mt-1 grid gap-0.5 font-mono text-muted-foreground">
                      {seller.devices.slice(0, 3).map((device) => (
                        <li key={device.posId}>
                          {device.posId}
                          {device.tlsRegistered ? " · TLS" : ""}
                          {device.status === "BLOCKED" ? ` · ${t("sellers.status.BLOCKED")}` : ""}
                        </li>
                      ))}
                      {seller.devices.length > 3 ? <li>…</li> : null}
                    </ul>
                  </TableCell>
                  <TableCell>
                    <DateTime value={seller.createdAt} />
                  </TableCell>
                  <TableCell>{seller.lastReportAt ? <DateTime value={seller.lastReportAt} /> : t("never")}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
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
