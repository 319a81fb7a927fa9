import { useTranslations } from "next-intl";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatBRL } from "@/lib/format/money";
import type { TLocale } from "@/lib/i18n/config";
import { formatBucketLabel } from "@/lib/overview/format";
import type { TOverviewBucketRow } from "@/lib/overview/overview";
import type { TOverviewBucket } from "@/lib/overview/schemas";
import type { TOverviewMethod } from "@/lib/overview/sources";

import { OverviewChartLoader } from "./overview-chart-loader";

type TProps = { series: TOverviewBucketRow[]; bucket: TOverviewBucket; locale: TLocale };

// The chart is drawn in the browser only; screen readers get the same numbers as a table rendered on the server.
export function OverviewChartSection({ series, bucket, locale }: TProps) {
  const t = useTranslations("overview");
  const labels = { pix: t("split.pix"), card: t("split.card"), link: t("split.link") };
  const hasLink = series.some((row) => row.link > 0);
  const methods: TOverviewMethod[] = hasLink ? ["pix", "card", "link"] : ["pix", "card"];
  const isEmpty = series.every((row) => !row.pix && !row.card && !row.link);
  const title = bucket === "hour" ? t("chart.byHour") : t("chart.byDay");

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="min-w-0">
        {isEmpty ? (
          <p className="text-sm text-muted-foreground">{t("chart.empty")}</p>
        ) : (
          <>
            <div aria-hidden="true">
              <OverviewChartLoader series={series} methods={methods} labels={labels} locale={locale} />
            </div>
            <table className="sr-only">
              <caption>
                {t("chart.tableCaption", { unit: bucket === "hour" ? t("chart.hour") : t("chart.day") })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{bucket === "hour" ? t("chart.time") : t("chart.date")}</th>
                  {methods.map((method) => (
                    <th key={method} scope="col">
                      {labels[method]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {series.map((row) => (
                  <tr key={row.bucket}>
                    <th scope="row">{formatBucketLabel(row.bucket, locale)}</th>
                    {methods.map((method) => (
                      <td key={method}>{formatBRL(row[method], locale)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </CardContent>
    </Card>
  );
}
