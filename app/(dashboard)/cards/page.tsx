import { KeyRoundIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ListPageLayout } from "@/components/data-table/list-page-layout";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/auth/session";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { findCardTokens } from "@/lib/saved-cards/cards";

import { AddCardDialog } from "./_components/add-card-dialog";
import { CardTokenFilters } from "./_components/card-token-filters";
import { CardTokenLookup } from "./_components/card-token-lookup";
import { CardTokensTable } from "./_components/card-tokens-table";
import { RefreshCardTokensButton } from "./_components/refresh-card-tokens-button";
import { loadCardTokenSearchParams, serializeCardTokenSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cards");
  return { title: t("title") };
}

// Admin only, and without a loading.tsx: a loading boundary would answer 200 before forbidden() could answer 403.
export default async function CardTokensPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission("savedCards.manage");
  const values = await loadCardTokenSearchParams(searchParams);
  const [result, t] = await Promise.all([findCardTokens(toListFilters(values)), getTranslations("cards")]);
  const hasFilters = hasListFilters(values);

  return (
    <ListPageLayout
      liveKinds={["card_token"]}
      header={
        <PageHeader
          className="mb-0"
          title={t("title")}
          description={t("description")}
          actions={
            <>
              <RefreshCardTokensButton />
              <AddCardDialog />
            </>
          }
        />
      }
      filters={
        <div className="grid gap-4">
          <CardTokenLookup />
          <CardTokenFilters />
        </div>
      }
      result={result}
      totalLabel={t("list.total", { count: result.total })}
      hrefForPage={(page) => serializeCardTokenSearchParams("/cards", { ...values, page })}
    >
      <CardTokensTable
        rows={result.rows}
        empty={
          <EmptyState
            icon={KeyRoundIcon}
            title={t("list.empty.title")}
            description={hasFilters ? t("list.empty.filtered") : t("list.empty.description")}
            action={
              hasFilters ? (
                <Button asChild variant="outline">
                  <Link href="/cards">{t("list.empty.clear")}</Link>
                </Button>
              ) : (
                <RefreshCardTokensButton />
              )
            }
          />
        }
      />
    </ListPageLayout>
  );
}
