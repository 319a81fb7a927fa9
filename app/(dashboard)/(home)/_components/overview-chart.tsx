"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { formatBRL } from "@/lib/format/money";
import type { TLocale } from "@/lib/i18n/config";
import { formatBucketLabel } from "@/lib/overview/format";
import type { TOverviewBucketRow } from "@/lib/overview/overview";
import type { TOverviewMethod } from "@/lib/overview/sources";

export type TOverviewChartProps = {
  series: TOverviewBucketRow[];
  methods: TOverviewMethod[];
  labels: Record<TOverviewMethod, string>;
  locale: TLocale;
};

// Colours are the theme's CSS variables (app/globals.css), so light and dark both read well.
const colours: Record<TOverviewMethod, string> = {
  pix: "var(--chart-pix)",
  card: "var(--chart-card)",
  link: "var(--chart-link)",
};

const compactFormats = new Map<TLocale, Intl.NumberFormat>();
function formatCompactReais(cents: number, locale: TLocale): string {
  let format = compactFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { notation: "compact", style: "currency", currency: "BRL" });
    compactFormats.set(locale, format);
  }
  return format.format(cents / 100);
}

/** Gross received per bucket, stacked by method. */
export function OverviewChart({ series, methods, labels, locale }: TOverviewChartProps) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis
          dataKey="bucket"
          tickFormatter={(bucket: string) => formatBucketLabel(bucket, locale)}
          tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
          stroke="var(--border)"
          minTickGap={12}
        />
        <YAxis
          width={64}
          tickFormatter={(cents: number) => formatCompactReais(cents, locale)}
          tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
          stroke="var(--border)"
        />
        <Tooltip
          cursor={{ fill: "var(--muted)" }}
          contentStyle={{
            background: "var(--popover)",
            color: "var(--popover-foreground)",
            border: "1px solid var(--border)",
            borderRadius: 6,
          }}
          labelFormatter={(bucket) => formatBucketLabel(String(bucket), locale)}
          formatter={(cents, name) => [formatBRL(Number(cents), locale), name]}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {methods.map((method) => (
          <Bar key={method} dataKey={method} name={labels[method]} stackId="received" fill={colours[method]} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
