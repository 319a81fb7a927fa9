export type TPageItem = { kind: "page"; page: number } | { kind: "gap"; key: string };

/**
 * The page numbers to show for `page` of `pageCount`: always the first and last, the current
 * one with `siblings` either side, and a gap where numbers are skipped. A gap never stands for
 * a single page (that page is shown instead), so the list length stays stable while paging.
 */
export function getPageItems(page: number, pageCount: number, siblings = 1): TPageItem[] {
  if (pageCount <= 0) return [];
  const current = Math.min(Math.max(page, 1), pageCount);
  // first + last + current + siblings + two gaps
  const maxItems = 2 * siblings + 5;
  if (pageCount <= maxItems) {
    return Array.from({ length: pageCount }, (_, i) => ({ kind: "page", page: i + 1 }));
  }

  let start = Math.max(2, current - siblings);
  let end = Math.min(pageCount - 1, current + siblings);
  // Near either end the run of numbers absorbs the would-be gap, keeping the item count fixed.
  const runLength = 2 * siblings + 2;
  if (start <= 3) {
    start = 2;
    end = start + runLength - 1;
  } else if (end >= pageCount - 2) {
    end = pageCount - 1;
    start = end - runLength + 1;
  }

  const items: TPageItem[] = [{ kind: "page", page: 1 }];
  if (start > 2) items.push({ kind: "gap", key: "gap-start" });
  for (let p = start; p <= end; p++) items.push({ kind: "page", page: p });
  if (end < pageCount - 1) items.push({ kind: "gap", key: "gap-end" });
  items.push({ kind: "page", page: pageCount });
  return items;
}

export type TPageNavigation = { previous: string | null; next: string | null; items: TPageItem[] };

/**
 * The links of a list's pager. Numbered pages are links by number; past them (or on a page reached by cursor,
 * `page` 0) "previous" and "next" follow the cursors of the rows either side, and a trailing gap says that more
 * pages follow than are numbered.
 */
export function getPageNavigation(
  position: {
    page: number;
    pageCount: number;
    cursors?: { previous: string | null; next: string | null };
    hasMorePages?: boolean;
  },
  hrefForPage: (page: number) => string,
  hrefForCursor?: (cursor: string) => string,
): TPageNavigation {
  const { page, pageCount, cursors } = position;
  const cursorHref = (cursor: string | null | undefined) => (cursor && hrefForCursor ? hrefForCursor(cursor) : null);
  if (page === 0) {
    return {
      previous: cursorHref(cursors?.previous),
      next: cursorHref(cursors?.next),
      items: [
        { kind: "page", page: 1 },
        { kind: "gap", key: "gap-cursor" },
      ],
    };
  }
  const items = getPageItems(page, pageCount);
  const next = page < pageCount ? hrefForPage(page + 1) : cursorHref(cursors?.next);
  if (position.hasMorePages && next !== null) items.push({ kind: "gap", key: "gap-more" });
  return { previous: page > 1 ? hrefForPage(page - 1) : null, next, items };
}
