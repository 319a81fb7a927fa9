"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import type { PosMatchStatus } from "@/lib/generated/prisma/enums";

/** The fields of a reported sale the list shows. */
export type TPosSaleTableRow = {
  id: string;
  occurredAt: Date;
  amountCents: number;
  approved: boolean;
  cardBrand: string;
  acquirerNetwork: string;
  posId: string;
  authorizationCode: string;
  matchStatus: PosMatchStatus;
};

const column = createDataTableColumnHelper<TPosSaleTableRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("pos.sales.columns");
  return <>{t(name)}</>;
}

function ApprovedCell({ approved }: { approved: boolean }) {
  const t = useTranslations("pos");
  return <>{approved ? t("yes") : t("no")}</>;
}

/** Ids and codes: monospace in the cell only, so a phone card's label keeps the label font. */
function Code({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs max-md:break-all">{children}</span>;
}

const columns: TDataTableColumn<TPosSaleTableRow>[] = [
  column.accessor("occurredAt", {
    header: () => <Header name="occurredAt" />,
    cell: ({ row: { original: sale } }) => (
      <Link href={`/pos/sales/${sale.id}`} className="underline-offset-4 hover:underline">
        <DateTime value={sale.occurredAt} />
      </Link>
    ),
  }),
  column.accessor("amountCents", {
    id: "amount",
    header: () => <Header name="amount" />,
    cell: (info) => <Money cents={info.getValue()} />,
  }),
  column.accessor("approved", {
    header: () => <Header name="approved" />,
    cell: (info) => <ApprovedCell approved={info.getValue()} />,
  }),
  column.accessor("cardBrand", {
    id: "brand",
    header: () => <Header name="brand" />,
    cell: ({ row: { original: sale } }) => (
      <>
        {sale.cardBrand}
        <div className="text-muted-foreground">{sale.acquirerNetwork}</div>
      </>
    ),
    meta: { className: "text-xs" },
  }),
  column.accessor("posId", {
    id: "pos",
    header: () => <Header name="pos" />,
    cell: (info) => <Code>{info.getValue()}</Code>,
  }),
  column.accessor("authorizationCode", {
    id: "authorization",
    header: () => <Header name="authorization" />,
    cell: (info) => <Code>{info.getValue()}</Code>,
  }),
  column.accessor("matchStatus", {
    id: "match",
    header: () => <Header name="match" />,
    cell: (info) => <ResourceStatusBadge resource="posSale" status={info.getValue()} />,
  }),
];

export function PosSalesTable({ rows, empty }: { rows: TPosSaleTableRow[]; empty: ReactNode }) {
  const t = useTranslations("pos.sales");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={empty} caption={t("listTitle")} />;
}
