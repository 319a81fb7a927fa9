"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { StatusBadge } from "@/components/status-badge";
import type { TPosApiKeyRow } from "@/lib/pos/api-keys";

import { PosKeyRowActions } from "./pos-key-row-actions";

const column = createDataTableColumnHelper<TPosApiKeyRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("pos.keys.columns");
  return <>{t(name)}</>;
}

function NameCell({ apiKey }: { apiKey: TPosApiKeyRow }) {
  const t = useTranslations("pos.keys");
  return (
    <>
      {apiKey.name}
      <Link
        href={`/pos/tenants/${apiKey.tenantId}`}
        className="block font-mono text-xs text-muted-foreground underline-offset-4 hover:underline"
        title={t("tenant")}
        aria-label={t("tenantDefaults", { tenant: apiKey.tenantId.slice(0, 8) })}
      >
        {apiKey.tenantId.slice(0, 8)}
      </Link>
    </>
  );
}

function StatusCell({ status }: { status: TPosApiKeyRow["status"] }) {
  const t = useTranslations("pos.keys");
  return (
    <StatusBadge status={status} toneByStatus={{ active: "success", expired: "warning", revoked: "danger" }}>
      {t(`status.${status}`)}
    </StatusBadge>
  );
}

function OptionalDate({ value, fallback }: { value: Date | null; fallback: "never" | "keys.noExpiry" }) {
  const t = useTranslations("pos");
  return value ? <DateTime value={value} /> : t(fallback);
}

function SellerTokenCell({ apiKey }: { apiKey: TPosApiKeyRow }) {
  const t = useTranslations("pos.keys.verification");
  return apiKey.sellerTokenMode ? (
    <>
      {t(`modes.${apiKey.sellerTokenMode}`)} · {apiKey.sellerTokenAlgorithm}
    </>
  ) : (
    <span className="text-muted-foreground">{t("none")}</span>
  );
}

/** Ids and codes: monospace in the cell only, so a phone card's label keeps the label font. */
function Code({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs max-md:break-all">{children}</span>;
}

const columns: TDataTableColumn<TPosApiKeyRow>[] = [
  column.accessor("name", {
    header: () => <Header name="name" />,
    cell: ({ row }) => <NameCell apiKey={row.original} />,
    meta: { className: "font-medium", card: "title" },
  }),
  column.accessor("prefix", {
    header: () => <Header name="prefix" />,
    cell: (info) => <Code>{info.getValue()}</Code>,
  }),
  column.accessor("status", {
    header: () => <Header name="status" />,
    cell: (info) => <StatusCell status={info.getValue()} />,
  }),
  column.accessor("createdAt", {
    header: () => <Header name="createdAt" />,
    cell: ({ row: { original: apiKey } }) => (
      <>
        <DateTime value={apiKey.createdAt} />
        {apiKey.createdByEmail ? (
          <div className="text-xs break-all text-muted-foreground">{apiKey.createdByEmail}</div>
        ) : null}
      </>
    ),
  }),
  column.accessor("lastUsedAt", {
    header: () => <Header name="lastUsedAt" />,
    cell: (info) => <OptionalDate value={info.getValue()} fallback="never" />,
  }),
  column.accessor("expiresAt", {
    header: () => <Header name="expiresAt" />,
    cell: (info) => <OptionalDate value={info.getValue()} fallback="keys.noExpiry" />,
  }),
  column.accessor("sellerTokenMode", {
    id: "sellerToken",
    header: () => <Header name="sellerToken" />,
    cell: ({ row }) => <SellerTokenCell apiKey={row.original} />,
    meta: { className: "text-xs" },
  }),
  column.accessor("sellerCount", {
    id: "sellers",
    header: () => <Header name="sellers" />,
    meta: { className: "tabular-nums" },
  }),
  column.display({
    id: "actions",
    header: () => <Header name="actions" />,
    cell: ({ row: { original: apiKey } }) => (
      <PosKeyRowActions
        keyId={apiKey.id}
        name={apiKey.name}
        prefix={apiKey.prefix}
        isRevoked={apiKey.status === "revoked"}
      />
    ),
    // Three buttons: on a phone they take the card's last line rather than its corner.
    meta: {
      className: "text-right max-md:[&>div]:flex-row max-md:[&>div]:flex-wrap",
      card: "wide",
      isHeaderVisuallyHidden: true,
    },
  }),
];

export function PosKeysTable({ rows, empty }: { rows: TPosApiKeyRow[]; empty: ReactNode }) {
  const t = useTranslations("pos.keys");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={empty} caption={t("caption")} />;
}
