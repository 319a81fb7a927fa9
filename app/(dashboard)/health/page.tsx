import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { Fragment } from "react";

import { DataTableError } from "@/components/data-table/data-table-error";
import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePermission } from "@/lib/auth/session";
import { readHealthReport, type THealthReport } from "@/lib/health/health";
import { log } from "@/lib/log";

import { FigureTable } from "./_components/figure-table";
import { LatencyChart } from "./_components/latency-chart";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("health");
  return { title: t("title") };
}

const linkClass = "underline-offset-4 hover:underline focus-visible:underline";

function percent(rate: number | null, locale: string): string {
  return rate === null
    ? "—"
    : new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(rate);
}

function hourLabel(at: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "America/Sao_Paulo" }).format(
    at,
  );
}

function Figure({ title, href, lines }: { title: string; href: string; lines: string[] }) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>
          <Link href={href} className={linkClass}>
            {title}
          </Link>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1 text-sm">
        {lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </CardContent>
    </Card>
  );
}

// No loading.tsx above this page: a visitor without health.view must get forbidden() as a real 403 status.
export default async function HealthPage() {
  await requirePermission("health.view");
  const [t, locale] = await Promise.all([getTranslations("health"), getLocale()]);
  let report: THealthReport | null = null;
  try {
    report = await readHealthReport();
  } catch (error) {
    log.error({ err: error }, "health page: reading the figures failed");
  }
  if (!report)
    return (
      <div className="grid min-w-0 gap-6">
        <PageHeader title={t("title")} description={t("description")} className="mb-0" />
        <DataTableError />
      </div>
    );
  const { refusals, drift } = report;
  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader title={t("title")} description={t("description")} className="mb-0" />
      <section className="grid min-w-0 gap-4 sm:grid-cols-3" aria-label={t("title")}>
        <Figure
          title={t("figures.certificate")}
          href="/settings"
          lines={[
            report.certificateDaysLeft === null
              ? t("figures.certificateUnknown")
              : t("figures.certificateDays", { days: report.certificateDaysLeft }),
          ]}
        />
        <Figure
          title={t("figures.refusals")}
          href="/payments?status=refused"
          lines={
            refusals.week.attempts === 0
              ? [t("figures.refusalsNone")]
              : [
                  t("figures.refusalsDay", { rate: percent(refusals.day.rate, locale) }),
                  t("figures.refusalsWeek", { rate: percent(refusals.week.rate, locale) }),
                ]
          }
        />
        <Figure
          title={t("figures.drift")}
          href="/health/drift"
          lines={[
            t("figures.driftFound", { count: drift.found }),
            t("figures.driftHealed", { count: drift.healed }),
            t("figures.driftOpen", { count: drift.open }),
          ]}
        />
      </section>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{t("gateway.title")}</CardTitle>
          <CardDescription>{t("gateway.description")}</CardDescription>
        </CardHeader>
        <CardContent className="grid min-w-0 gap-4">
          {report.gateway.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("gateway.empty")}</p>
          ) : (
            <>
              <LatencyChart
                label={t("gateway.chartLabel")}
                points={report.gatewaySeries.map((step) => ({
                  hour: hourLabel(step.at, locale),
                  p50: step.p50Ms,
                  p99: step.p99Ms,
                }))}
              />
              <FigureTable
                label={t("gateway.title")}
                columns={[
                  { header: t("gateway.operation") },
                  { header: t("gateway.calls"), isNumeric: true },
                  { header: t("gateway.errorRate"), isNumeric: true },
                  { header: t("gateway.clientErrors"), isNumeric: true },
                  { header: t("gateway.p50"), isNumeric: true },
                  { header: t("gateway.p99"), isNumeric: true },
                ]}
                rows={report.gateway.map((row) => ({
                  key: row.operation,
                  cells: [
                    row.operation,
                    row.calls,
                    percent(row.errorRate, locale),
                    row.clientErrors,
                    row.p50Ms ?? "—",
                    row.p99Ms ?? "—",
                  ],
                }))}
              />
            </>
          )}
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{t("webhooks.title")}</CardTitle>
          <CardDescription>{t("webhooks.description")}</CardDescription>
        </CardHeader>
        <CardContent className="min-w-0">
          {report.webhooks.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("webhooks.empty")}</p>
          ) : (
            <FigureTable
              label={t("webhooks.title")}
              columns={[
                { header: t("webhooks.endpoint") },
                { header: t("webhooks.received"), isNumeric: true },
                { header: t("webhooks.applied"), isNumeric: true },
                { header: t("webhooks.failed"), isNumeric: true },
                { header: t("webhooks.refused"), isNumeric: true },
                { header: t("webhooks.lagP50"), isNumeric: true },
                { header: t("webhooks.lagP99"), isNumeric: true },
              ]}
              rows={report.webhooks.map((row) => {
                const scope = row.webhookId ? `webhookId=${row.webhookId}` : "";
                const deliveries = (outcome?: string) =>
                  `/webhooks/deliveries?${[outcome ? `outcome=${outcome}` : "", scope].filter(Boolean).join("&")}`;
                const count = (value: number, outcome?: string) => (
                  <Link className={linkClass} href={deliveries(outcome)}>
                    {value}
                  </Link>
                );
                return {
                  key: row.webhookId ?? "unknown",
                  cells: [
                    row.url ?? t("webhooks.unknownEndpoint"),
                    count(row.received),
                    count(row.applied, "APPLIED"),
                    count(row.failed, "FAILED"),
                    count(row.refused, "REJECTED_SIGNATURE"),
                    row.lagP50Ms ?? "—",
                    row.lagP99Ms ?? "—",
                  ],
                };
              })}
            />
          )}
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>
            <Link href="/jobs" className={linkClass}>
              {t("jobs.title")}
            </Link>
          </CardTitle>
          <CardDescription>{t("jobs.description")}</CardDescription>
        </CardHeader>
        <CardContent className="min-w-0">
          {report.jobs.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("jobs.empty")}</p>
          ) : (
            <FigureTable
              label={t("jobs.title")}
              columns={[
                { header: t("jobs.job") },
                { header: t("jobs.lastRun") },
                { header: t("jobs.failures"), isNumeric: true },
                { header: t("jobs.nextRun") },
              ]}
              rows={report.jobs.map((job) => ({
                key: job.name,
                cells: [
                  job.name,
                  <Fragment key="last">
                    {job.lastStartedAt ? <DateTime value={job.lastStartedAt.toISOString()} /> : t("jobs.never")}
                    {job.lastOutcome ? ` · ${job.lastOutcome}` : ""}
                  </Fragment>,
                  job.consecutiveFailures,
                  job.nextRunAt ? <DateTime key="next" value={job.nextRunAt.toISOString()} /> : "—",
                ],
              }))}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
