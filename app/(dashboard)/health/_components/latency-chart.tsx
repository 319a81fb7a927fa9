"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export type TLatencyPoint = { hour: string; p50: number | null; p99: number | null };

/** Drawn for the eye only: the table beside it carries the same figures for screen readers. */
export function LatencyChart({ points, label }: { points: TLatencyPoint[]; label: string }) {
  return (
    <div className="h-56 w-full min-w-0" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="hour" tick={{ fill: "var(--muted-foreground)", fontSize: 12 }} stroke="var(--border)" />
          <YAxis width={48} tick={{ fill: "var(--muted-foreground)", fontSize: 12 }} stroke="var(--border)" />
          <Tooltip
            contentStyle={{
              background: "var(--popover)",
              color: "var(--popover-foreground)",
              border: "1px solid var(--border)",
              borderRadius: 6,
            }}
          />
          <Legend />
          <Line type="monotone" dataKey="p50" stroke="var(--chart-pix)" dot={false} isAnimationActive={false} />
          <Line type="monotone" dataKey="p99" stroke="var(--chart-card)" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
