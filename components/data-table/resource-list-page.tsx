import type { LucideIcon } from "lucide-react";
import { PlusIcon } from "lucide-react";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import type { TChangeKind } from "@/lib/events/change";

import { ListPageLayout } from "./list-page-layout";
import { totalAmountLabel } from "./total-amount-label";

type TResourceListPageProps = {
  /** The messages namespace: `title`, `description`, `list.total`, `list.empty.{title,description,filtered}`. */
  namespace: "pix" | "links" | "cardPayments";
  liveKinds: TChangeKind[];
  /** Where "new" goes, and the key of its label in the namespace. */
  /** Left out for a viewer who may not create one. */
  create?: { href: string; labelKey: string };
  refreshButton: ReactNode;
  filters: ReactNode;
  result: {
    rows: unknown[];
    total: number;
    isTotalCapped?: boolean;
    hasMorePages?: boolean;
    totalCents?: number;
    page: number;
    pageCount: number;
    cursors?: { previous: string | null; next: string | null };
  };
  hasFilters: boolean;
  /** Replaces the one "Total amount" label, for a list whose rows must not be added together (card payments). */
  totalAmountLabel?: string;
  exportEndpoint?: string;
  hrefForPage: (page: number) => string;
  hrefForCursor?: (cursor: string) => string;
  emptyIcon: LucideIcon;
  /** The table, given the empty state it shows when there are no rows. */
  table: (empty: ReactNode) => ReactNode;
};

/** A list of money resources made here (Pix charges, links, card payments): header with refresh and "new", filters,
 * totals, export, the table with its empty state, pagination, kept live. */
export async function ResourceListPage(props: TResourceListPageProps) {
  const t = await getTranslations(props.namespace);
  const { create } = props;
  const empty = (
    <EmptyState
      icon={props.emptyIcon}
      title={t("list.empty.title")}
      description={props.hasFilters ? t("list.empty.filtered") : t("list.empty.description")}
      action={
        create ? (
          <Button asChild variant="outline">
            <Link href={create.href}>{t(create.labelKey)}</Link>
          </Button>
        ) : undefined
      }
    />
  );
  return (
    <ListPageLayout
      liveKinds={props.liveKinds}
      header={
        <PageHeader
          className="mb-0"
          title={t("title")}
          description={t("description")}
          actions={
            <>
              {props.refreshButton}
              {create ? (
                <Button asChild>
                  <Link href={create.href}>
                    <PlusIcon aria-hidden="true" />
                    {t(create.labelKey)}
                  </Link>
                </Button>
              ) : null}
            </>
          }
        />
      }
      filters={props.filters}
      result={props.result}
      totalLabel={t("list.total", { count: props.result.total })}
      exportEndpoint={props.exportEndpoint}
      totalAmountLabel={
        props.totalAmountLabel ?? (await totalAmountLabel(props.result.totalCents, props.result.isTotalCapped))
      }
      hrefForPage={props.hrefForPage}
      hrefForCursor={props.hrefForCursor}
    >
      {props.table(empty)}
    </ListPageLayout>
  );
}
