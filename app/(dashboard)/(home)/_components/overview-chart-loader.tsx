"use client";

import dynamic from "next/dynamic";

import type { TOverviewChartProps } from "./overview-chart";

// recharts is loaded in the browser only, and only by this page: it never reaches the pay page's bundle.
const OverviewChart = dynamic(() => import("./overview-chart").then((module) => module.OverviewChart), {
  ssr: false,
  loading: () => <div className="h-64 w-full animate-pulse rounded-md bg-muted" />,
});

export function OverviewChartLoader(props: TOverviewChartProps) {
  return (
    <div className="h-64 w-full min-w-0">
      <OverviewChart {...props} />
    </div>
  );
}
