import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { LiveRefresh } from "@/components/live/live-refresh";
import { PageHeader } from "@/components/page-header";
import { requirePermission } from "@/lib/auth/session";
import { resolveLocale } from "@/lib/i18n/config";
import { getOverview } from "@/lib/overview/overview";
import { overviewChangeKinds } from "@/lib/overview/rollup";
import { isPeriodCurrent, resolveOverviewPeriod, ZOverviewSearchParams } from "@/lib/overview/schemas";

import { OverviewChartSection } from "./_components/overview-chart-section";
import { OverviewFigures } from "./_components/overview-figures";
import { overviewHrefs } from "./_components/overview-links";
import { OverviewMethodSplit } from "./_components/overview-method-split";
import { OverviewPeriodPicker } from "./_components/overview-period-picker";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("overview");
  return { title: t("title") };
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission("payments.view");
  const raw = await searchParams;
  const params = ZOverviewSearchParams.parse({
    period: first(raw.period),
    from: first(raw.from),
    to: first(raw.to),
  });
  const period = resolveOverviewPeriod(params);
  const [overview, t, locale] = await Promise.all([getOverview(period), getTranslations("overview"), getLocale()]);
  const hrefs = overviewHrefs(period);

  return (
    <div className="grid min-w-0 gap-6">
      {/* A payment, refund or link change pushed while the page is open renders the figures again. */}
      {isPeriodCurrent(period) && <LiveRefresh kinds={overviewChangeKinds} />}
      <PageHeader className="mb-0" title={t("title")} description={t("description")} />
      <OverviewPeriodPicker period={period} />
      <OverviewFigures overview={overview} hrefs={hrefs} />
      <OverviewChartSection series={overview.series} bucket={period.bucket} locale={resolveLocale(locale)} />
      <OverviewMethodSplit overview={overview} hrefs={hrefs} />
    </div>
  );
}
