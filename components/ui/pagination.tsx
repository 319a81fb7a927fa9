import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { cn } from "@/lib/utils";

import { buttonVariants } from "./button";
import { getPageNavigation } from "./page-items";

type PaginationProps = {
  page: number;
  pageCount: number;
  /** The URL of a page, usually the current URL with `page` changed, so paging survives reload and sharing. */
  hrefForPage: (page: number) => string;
  /** A list paged by cursor past its numbered pages (`page` 0 on such a page): its neighbours' cursors. */
  cursors?: { previous: string | null; next: string | null };
  hrefForCursor?: (cursor: string) => string;
  /** More rows follow than the numbered pages hold: a trailing "…". */
  hasMorePages?: boolean;
  className?: string;
};

/** Numbered page links, then "next" by cursor where a list has one; renders nothing for a single page. */
export function Pagination({
  page,
  pageCount,
  hrefForPage,
  cursors,
  hrefForCursor,
  hasMorePages,
  className,
}: PaginationProps) {
  const t = useTranslations("common.pagination");
  const navigation = getPageNavigation({ page, pageCount, cursors, hasMorePages }, hrefForPage, hrefForCursor);
  if (navigation.previous === null && navigation.next === null) return null;

  return (
    <nav aria-label={t("label")} className={cn("flex items-center justify-center gap-1", className)}>
      <PageLink href={navigation.previous} label={t("previous")}>
        <ChevronLeftIcon aria-hidden="true" />
        <span className="hidden sm:inline">{t("previous")}</span>
      </PageLink>
      <ul className="flex items-center gap-1">
        {navigation.items.map((item) =>
          item.kind === "gap" ? (
            <li key={item.key} aria-hidden="true" className="px-1 text-muted-foreground">
              …
            </li>
          ) : (
            <li key={item.page}>
              <Link
                href={hrefForPage(item.page)}
                aria-current={item.page === page ? "page" : undefined}
                aria-label={t("page", { page: item.page })}
                className={cn(
                  buttonVariants({ variant: item.page === page ? "outline" : "ghost", size: "icon-sm" }),
                  "tabular-nums",
                )}
              >
                {item.page}
              </Link>
            </li>
          ),
        )}
      </ul>
      <PageLink href={navigation.next} label={t("next")}>
        <span className="hidden sm:inline">{t("next")}</span>
        <ChevronRightIcon aria-hidden="true" />
      </PageLink>
    </nav>
  );
}

function PageLink({ href, label, children }: { href: string | null; label: string; children: ReactNode }) {
  const className = buttonVariants({ variant: "ghost", size: "sm" });
  if (!href) {
    return (
      <button type="button" disabled aria-label={label} className={className}>
        {children}
      </button>
    );
  }
  return (
    <Link href={href} aria-label={label} className={className}>
      {children}
    </Link>
  );
}
