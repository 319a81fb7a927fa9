import { PlusIcon, QrCodeIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ListPageLayout } from "@/components/data-table/list-page-layout";
import { totalAmountLabel } from "@/components/data-table/total-amount-label";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/lib/auth/session";
import { defaultPeriod } from "@/lib/list/period";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { findPixCharges } from "@/lib/pix/charges";

import { PixChargeFilters } from "../_components/pix-charge-filters";
import { PixChargesTable } from "../_components/pix-charges-table";
import { RefreshFromGatewayButton } from "../_components/refresh-from-gateway-button";
import { loadPixChargeSearchParams, serializePixChargeSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pix");
  return { title: t("title") };
}

export default async function PixChargesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireUser();
  const values = await loadPixChargeSearchParams(searchParams);
  // The period is never open-ended (the upstream list requires one): absent days mean the last 7.
  const fallback = defaultPeriod();
  const period = { from: values.from ?? fallback.from, to: values.to ?? fallback.to };
  const [result, t] = await Promise.all([
    findPixCharges({ ...toListFilters(values), ...period }),
    getTranslations("pix"),
  ]);
  const hasFilters = hasListFilters(values);

  return (
    <ListPageLayout
      liveKinds={["pix_charge"]}
      header={
        <PageHeader
          className="mb-0"
          title={t("title")}
          description={t("description")}
          actions={
            <>
              <RefreshFromGatewayButton period={period} />
              <Button asChild>
                <Link href="/pix/new">
                  <PlusIcon aria-hidden="true" />
                  {t("newCharge")}
                </Link>
              </Button>
            </>
          }
        />
      }
      filters={<PixChargeFilters period={period} />}
      result={result}
      totalLabel={t("list.total", { count: result.total })}
      exportEndpoint="/api/exports/pix-charges"
      totalAmountLabel={await totalAmountLabel(result.totalCents)}
      hrefForPage={(page) => serializePixChargeSearchParams("/pix", { ...values, page })}
    >
      <PixChargesTable
        rows={result.rows}
        empty={
          <EmptyState
            icon={QrCodeIcon}
            title={t("list.empty.title")}
            description={hasFilters ? t("list.empty.filtered") : t("list.empty.description")}
            action={
              <Button asChild variant="outline">
                <Link href="/pix/new">{t("newCharge")}</Link>
              </Button>
            }
          />
        }
      />
    </ListPageLayout>
  );
}
