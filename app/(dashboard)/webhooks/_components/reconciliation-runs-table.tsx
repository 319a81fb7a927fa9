"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { StatusBadge, type TStatusTone } from "@/components/status-badge";
import type { THealedItem } from "@/lib/reconcile/reconcile";
import { detailHrefByChangeKind, reconciledChangeKinds } from "@/lib/resources/registry";

/** A reconciliation run as the panel lists it. */
export type TReconciliationRunRow = {
  id: string;
  startedAt: Date;
  trigger: "SCHEDULE" | "MANUAL";
  actorEmail: string | null;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  error: string | null;
  // Items read per change kind (lib/resources/registry.ts).
  scanned: Record<string, number>;
  healed: THealedItem[];
};

const toneByStatus: Record<string, TStatusTone> = { RUNNING: "info", SUCCEEDED: "success", FAILED: "danger" };
// Enough to see what a run did; the log line of each run lists everything.
const maxHealedShown = 5;

const column = createDataTableColumnHelper<TReconciliationRunRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("reconciliation.columns");
  return <>{t(name)}</>;
}

function HealedItem({ item }: { item: THealedItem }) {
  const label = `${item.from ?? "—"} → ${item.to}`;
  const base = detailHrefByChangeKind[item.kind];
  return (
    <li className="truncate">
      {base ? (
        <Link href={`${base}/${encodeURIComponent(item.id)}`} className="font-mono underline-offset-4 hover:underline">
          {item.id}
        </Link>
      ) : (
        <span className="font-mono">{item.id}</span>
      )}{" "}
      <span className="text-muted-foreground">{label}</span>
    </li>
  );
}

function TriggerCell({ run }: { run: TReconciliationRunRow }) {
  const t = useTranslations("reconciliation");
  return (
    <>{run.trigger === "MANUAL" ? t("trigger.MANUAL", { email: run.actorEmail ?? "—" }) : t("trigger.SCHEDULE")}</>
  );
}

function StatusCell({ run }: { run: TReconciliationRunRow }) {
  const t = useTranslations("reconciliation");
  return (
    <>
      <StatusBadge status={run.status} toneByStatus={toneByStatus}>
        {t(`status.${run.status}`)}
      </StatusBadge>
      {run.error ? <p className="mt-1 max-w-xs text-xs text-destructive">{t("readFailed")}</p> : null}
    </>
  );
}

function ScannedCell({ run }: { run: TReconciliationRunRow }) {
  const t = useTranslations("reconciliation");
  return (
    <>{reconciledChangeKinds.map((kind) => t(`scannedKinds.${kind}`, { count: run.scanned[kind] ?? 0 })).join(", ")}</>
  );
}

function HealedCell({ healed }: { healed: THealedItem[] }) {
  const t = useTranslations("reconciliation");
  if (healed.length === 0) return <span className="text-muted-foreground">{t("nothingHealed")}</span>;
  return (
    <ul className="grid max-w-sm gap-0.5 text-xs">
      {healed.slice(0, maxHealedShown).map((item) => (
        <HealedItem key={`${item.kind}:${item.id}`} item={item} />
      ))}
      {healed.length > maxHealedShown ? (
        <li className="text-muted-foreground">{t("more", { count: healed.length - maxHealedShown })}</li>
      ) : null}
    </ul>
  );
}

const columns: TDataTableColumn<TReconciliationRunRow>[] = [
  column.accessor("startedAt", {
    header: () => <Header name="startedAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
  }),
  column.accessor("trigger", {
    header: () => <Header name="trigger" />,
    cell: ({ row }) => <TriggerCell run={row.original} />,
    meta: { className: "max-md:break-all" },
  }),
  column.accessor("status", {
    header: () => <Header name="status" />,
    cell: ({ row }) => <StatusCell run={row.original} />,
  }),
  column.display({
    id: "scanned",
    header: () => <Header name="scanned" />,
    cell: ({ row }) => <ScannedCell run={row.original} />,
    meta: { className: "tabular-nums" },
  }),
  column.accessor("healed", {
    header: () => <Header name="healed" />,
    cell: (info) => <HealedCell healed={info.getValue()} />,
    meta: { card: "wide" },
  }),
];

/** The last reconciliation runs: when, why, what was read and what was healed. */
export function ReconciliationRunsTable({ rows, empty }: { rows: TReconciliationRunRow[]; empty: ReactNode }) {
  const t = useTranslations("reconciliation");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={empty} caption={t("title")} />;
}
