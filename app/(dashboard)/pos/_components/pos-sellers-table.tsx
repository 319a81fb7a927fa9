"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { StatusBadge } from "@/components/status-badge";
import type { TPosSellerRow } from "@/lib/pos/admin-sellers";

const column = createDataTableColumnHelper<TPosSellerRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("pos.sellers.columns");
  return <>{t(name)}</>;
}

function StatusCell({ status }: { status: TPosSellerRow["status"] }) {
  const t = useTranslations("pos.sellers");
  return (
    <StatusBadge status={status} toneByStatus={{ ACTIVE: "success", BLOCKED: "danger" }}>
      {t(`status.${status}`)}
    </StatusBadge>
  );
}

function DevicesCell({ devices }: { devices: TPosSellerRow["devices"] }) {
  const t = useTranslations("pos.sellers");
  return (
    <>
      {t("deviceCount", {
        count: devices.length,
        blocked: devices.filter((device) => device.status === "BLOCKED").length,
      })}
      <ul className="mt-1 grid gap-0.5 font-mono text-muted-foreground">
        {devices.slice(0, 3).map((device) => (
          <li key={device.posId}>
            {device.posId}
            {device.tlsRegistered ? " · TLS" : ""}
            {device.status === "BLOCKED" ? ` · ${t("status.BLOCKED")}` : ""}
          </li>
        ))}
        {devices.length > 3 ? <li>…</li> : null}
      </ul>
    </>
  );
}

function LastReportCell({ value }: { value: Date | null }) {
  const t = useTranslations("pos");
  return value ? <DateTime value={value} /> : t("never");
}

/** Ids and codes: monospace in the cell only, so a phone card's label keeps the label font. */
function Code({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs max-md:break-all">{children}</span>;
}

const columns: TDataTableColumn<TPosSellerRow>[] = [
  column.accessor("id", {
    id: "seller",
    header: () => <Header name="seller" />,
    cell: ({ row: { original: seller } }) => (
      <>
        <Link
          href={`/pos/sellers/${encodeURIComponent(seller.id)}`}
          className="font-mono text-xs font-medium underline-offset-4 hover:underline"
        >
          {seller.id}
        </Link>
        <div className="text-xs text-muted-foreground">{seller.reference}</div>
      </>
    ),
    meta: { className: "max-md:break-all", card: "title" },
  }),
  column.accessor("subEstablishmentRef", {
    header: () => <Header name="subEstablishmentRef" />,
    cell: (info) => <Code>{info.getValue()}</Code>,
  }),
  column.accessor("status", {
    header: () => <Header name="status" />,
    cell: (info) => <StatusCell status={info.getValue()} />,
  }),
  column.accessor("devices", {
    header: () => <Header name="devices" />,
    cell: (info) => <DevicesCell devices={info.getValue()} />,
    meta: { className: "text-xs max-md:break-all", card: "wide" },
  }),
  column.accessor("createdAt", {
    id: "activatedAt",
    header: () => <Header name="activatedAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
  }),
  column.accessor("lastReportAt", {
    header: () => <Header name="lastReportAt" />,
    cell: (info) => <LastReportCell value={info.getValue()} />,
  }),
];

export function PosSellersTable({ rows, empty }: { rows: TPosSellerRow[]; empty: ReactNode }) {
  const t = useTranslations("pos.sellers");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={empty} caption={t("caption")} />;
}
