"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ClippedTextCell } from "@/components/data-table/clipped-text-cell";
import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import type { TCardTokenRow } from "@/lib/saved-cards/types";
import { cn } from "@/lib/utils";
import { CardTokenStatusToggle, UseInTerminalLink } from "./card-token-actions";

const column = createDataTableColumnHelper<TCardTokenRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("cards.list.columns");
  return <>{t(name)}</>;
}

function CardBrand({ card }: { card: Pick<TCardTokenRow, "brand" | "brandCode"> }) {
  const t = useTranslations("cards");
  return <>{card.brand ? t(`brands.${card.brand}`) : t("unknownBrand", { code: card.brandCode })}</>;
}

function LastFour({ value }: { value: string }) {
  return (
    <span className="font-mono whitespace-nowrap tabular-nums">
      <span aria-hidden="true">•••• </span>
      {value}
    </span>
  );
}

function Expiry({ card }: { card: TCardTokenRow }) {
  const t = useTranslations("cards");
  return (
    <span className={cn("whitespace-nowrap tabular-nums", card.isExpired && "font-medium text-destructive")}>
      {card.expiry}
      {card.isExpired ? <span className="ml-1 text-xs">({t("expired")})</span> : null}
    </span>
  );
}

function OptionalDate({ value }: { value: string | null }) {
  return value ? <DateTime value={value} /> : <span className="text-muted-foreground">—</span>;
}

// Sort keys are the list filter's `sort` values (lib/saved-cards/schemas.ts, cardTokenSortColumns).
const columns: TDataTableColumn<TCardTokenRow>[] = [
  column.accessor("brandCode", {
    header: () => <Header name="brand" />,
    cell: ({ row }) => <CardBrand card={row.original} />,
    meta: { sortKey: "brand", firstSortOrder: "asc" },
  }),
  column.accessor("bin", {
    header: () => <Header name="bin" />,
    cell: (info) => <span className="font-mono tabular-nums">{info.getValue()}</span>,
  }),
  column.accessor("lastFour", {
    header: () => <Header name="lastFour" />,
    cell: (info) => <LastFour value={info.getValue()} />,
    meta: { sortKey: "lastFour", firstSortOrder: "asc" },
  }),
  column.accessor("expiry", {
    header: () => <Header name="expiry" />,
    cell: ({ row }) => <Expiry card={row.original} />,
  }),
  column.accessor("customerId", {
    header: () => <Header name="customerId" />,
    cell: (info) => <ClippedTextCell text={info.getValue()} className="max-w-40" />,
  }),
  column.accessor("status", {
    header: () => <Header name="status" />,
    cell: (info) => <ResourceStatusBadge resource="savedCard" status={info.getValue()} />,
    meta: { sortKey: "status", firstSortOrder: "asc" },
  }),
  column.accessor("createdAt", {
    header: () => <Header name="createdAt" />,
    cell: (info) => <OptionalDate value={info.getValue()} />,
    meta: { sortKey: "createdAt" },
  }),
  column.accessor("modifiedAt", {
    header: () => <Header name="modifiedAt" />,
    cell: (info) => <OptionalDate value={info.getValue()} />,
    meta: { sortKey: "modifiedAt" },
  }),
  column.display({
    id: "actions",
    header: () => <Header name="actions" />,
    cell: ({ row }) => (
      <div className="flex items-center justify-end gap-3">
        <CardTokenStatusToggle card={row.original} />
        <UseInTerminalLink card={row.original} />
      </div>
    ),
    meta: { className: "text-right", isHeaderVisuallyHidden: true },
  }),
];

// Phones get one card per token instead of the wide table, so the page never scrolls sideways.
function CardTokenList({ rows }: { rows: TCardTokenRow[] }) {
  const t = useTranslations("cards.list.columns");
  return (
    <ul className="grid gap-3 sm:hidden">
      {rows.map((card) => (
        <li key={card.token} className="grid gap-3 rounded-md border p-4 text-sm">
          <div className="flex items-start justify-between gap-3">
            <div className="grid min-w-0 gap-1">
              <span className="font-medium">
                <CardBrand card={card} /> <LastFour value={card.lastFour} />
              </span>
              <span className="text-muted-foreground">
                {t("bin")} <span className="font-mono">{card.bin}</span> · {t("expiry")} <Expiry card={card} />
              </span>
            </div>
            <ResourceStatusBadge resource="savedCard" status={card.status} />
          </div>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-muted-foreground">
            <dt>{t("customerId")}</dt>
            <dd className="truncate text-foreground">{card.customerId ?? "—"}</dd>
            <dt>{t("createdAt")}</dt>
            <dd className="text-foreground">
              <OptionalDate value={card.createdAt} />
            </dd>
            <dt>{t("modifiedAt")}</dt>
            <dd className="text-foreground">
              <OptionalDate value={card.modifiedAt} />
            </dd>
          </dl>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <CardTokenStatusToggle card={card} />
            <UseInTerminalLink card={card} />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function CardTokensTable({ rows, empty }: { rows: TCardTokenRow[]; empty: ReactNode }) {
  const t = useTranslations("cards.list");
  if (rows.length === 0) return <>{empty}</>;
  return (
    <>
      <CardTokenList rows={rows} />
      <div className="hidden sm:block">
        <DataTable columns={columns} data={rows} getRowId={(row) => row.token} empty={empty} caption={t("caption")} />
      </div>
    </>
  );
}
