"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { ClippedTextCell } from "@/components/data-table/clipped-text-cell";
import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import type { TAuditEntry } from "@/lib/audit/audit-log";

const column = createDataTableColumnHelper<TAuditEntry>();

function Header({ name }: { name: string }) {
  const t = useTranslations("audit.columns");
  return <>{t(name)}</>;
}

function ActorCell({ email }: { email: string | null }) {
  const t = useTranslations("audit");
  return <>{email ?? t("system")}</>;
}

function ActionCell({ action }: { action: string }) {
  const t = useTranslations("audit");
  return <>{t.has(`actions.${action}`) ? t(`actions.${action}`) : action}</>;
}

function DetailsCell({ metadata }: { metadata: TAuditEntry["metadata"] }) {
  // The whole JSON is also in the CSV export.
  return <ClippedTextCell text={metadata ? JSON.stringify(metadata) : null} className="max-w-40 font-mono text-xs" />;
}

/** Ids and codes: monospace in the cell only, so a phone card's label keeps the label font. */
function Code({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs max-md:break-all">{children}</span>;
}

/** `type:id`, broken anywhere past a column's width on a desktop, so a long id does not widen the whole table. */
function ResourceCell({ type, id }: { type: string | null; id: string | null }) {
  return (
    <span className="block min-w-48 max-w-60 font-mono text-xs wrap-anywhere max-md:min-w-0 max-md:max-w-none">
      {type ? `${type}${id ? `:${id}` : ""}` : "—"}
    </span>
  );
}

const columns: TDataTableColumn<TAuditEntry>[] = [
  column.accessor("occurredAt", {
    header: () => <Header name="occurredAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
  }),
  column.accessor("actorEmail", {
    header: () => <Header name="actor" />,
    cell: (info) => <ActorCell email={info.getValue()} />,
    meta: { className: "max-md:break-all" },
  }),
  column.accessor("action", {
    header: () => <Header name="action" />,
    cell: (info) => <ActionCell action={info.getValue()} />,
  }),
  column.accessor("resourceId", {
    id: "resource",
    header: () => <Header name="resource" />,
    cell: ({ row: { original: entry } }) => <ResourceCell type={entry.resourceType} id={entry.resourceId} />,
    meta: { card: "wide" },
  }),
  column.accessor("ip", {
    header: () => <Header name="ip" />,
    cell: (info) => <Code>{info.getValue() ?? "—"}</Code>,
  }),
  column.accessor("metadata", {
    id: "details",
    header: () => <Header name="details" />,
    cell: (info) => <DetailsCell metadata={info.getValue()} />,
    meta: { card: "wide" },
  }),
];

export function AuditTable({ rows, empty }: { rows: TAuditEntry[]; empty: ReactNode }) {
  const t = useTranslations("audit");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={empty} caption={t("caption")} />;
}
