import { QrCodeIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ResourceListPage } from "@/components/data-table/resource-list-page";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
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
  const user = await requirePermission("payments.view");
  const values = await loadPixChargeSearchParams(searchParams);
  // The period is never open-ended (the upstream list requires one): absent days mean the last 7.
  const fallback = defaultPeriod();
  const period = { from: values.from ?? fallback.from, to: values.to ?? fallback.to };
  const result = await findPixCharges({ ...toListFilters(values), ...period });

  return (
    <ResourceListPage
      namespace="pix"
      liveKinds={["pix_charge"]}
      create={can(user, "pix.charge") ? { href: "/pix/new", labelKey: "newCharge" } : undefined}
      refreshButton={<RefreshFromGatewayButton period={period} />}
      filters={<PixChargeFilters period={period} />}
      result={result}
      hasFilters={hasListFilters(values)}
      exportEndpoint={can(user, "exports.download") ? "/api/exports/pix-charges" : undefined}
      hrefForPage={(page) => serializePixChargeSearchParams("/pix", { ...values, page, cursor: null })}
      hrefForCursor={(cursor) => serializePixChargeSearchParams("/pix", { ...values, page: null, cursor })}
      emptyIcon={QrCodeIcon}
      table={(empty) => <PixChargesTable rows={result.rows} empty={empty} />}
    />
  );
}
