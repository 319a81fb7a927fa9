"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { SearchIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type KeyboardEvent, useEffect, useId, useMemo, useState } from "react";

import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { searchQueryMaxLength, searchQueryMinLength } from "@/lib/search/schemas";
import type { TSearchHit, TSearchResult } from "@/lib/search/types";
import { cn } from "@/lib/utils";

const debounceMs = 200;

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

async function fetchSearch(query: string, signal: AbortSignal): Promise<TSearchResult> {
  const response = await fetch(`/api/search?q=${encodeURIComponent(query)}`, { signal, cache: "no-store" });
  if (!response.ok) throw Object.assign(new Error(`search failed: ${response.status}`), { status: response.status });
  return (await response.json()) as TSearchResult;
}

function useDebounced(value: string): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), debounceMs);
    return () => clearTimeout(timer);
  }, [value]);
  return debounced;
}

/** The header's search button and the command palette it opens (also `/` outside a text field, Ctrl/Cmd+K). */
export function GlobalSearch() {
  const t = useTranslations("search");
  const [isOpen, setIsOpen] = useState(false);

  useEffect(() => {
    function onKeyDown(event: globalThis.KeyboardEvent) {
      const isModK = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k";
      const isSlash =
        event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !isTextField(event.target);
      if (!isModK && !isSlash) return;
      event.preventDefault();
      setIsOpen((open) => (isModK ? !open : true));
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="gap-2 text-muted-foreground max-sm:size-9 max-sm:px-0"
        onClick={() => setIsOpen(true)}
        aria-keyshortcuts="/ Control+K Meta+K"
        aria-label={t("open")}
        aria-haspopup="dialog"
      >
        <SearchIcon aria-hidden="true" />
        <span className="hidden sm:inline">{t("open")}</span>
        <kbd className="hidden rounded border bg-muted px-1.5 font-mono text-[0.7rem] lg:inline">{t("shortcut")}</kbd>
      </Button>
      <Dialog open={isOpen} onOpenChange={setIsOpen}>
        <DialogContent
          showCloseButton={false}
          className="top-3 max-h-[calc(100dvh-1.5rem)] w-[calc(100%-1.5rem)] max-w-xl translate-y-0 content-start gap-0 overflow-hidden p-0 sm:top-[12vh]"
        >
          {isOpen ? <SearchPalette onNavigate={() => setIsOpen(false)} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

type TFlatHit = TSearchHit & { optionId: string };

function SearchPalette({ onNavigate }: { onNavigate: () => void }) {
  const t = useTranslations("search");
  const router = useRouter();
  const baseId = useId();
  const listboxId = `${baseId}-listbox`;
  const [query, setQuery] = useState("");
  const [activeIndex, setActiveIndex] = useState(0);
  const trimmed = useDebounced(query.trim());
  const isSearchable = trimmed.length >= searchQueryMinLength;

  const search = useQuery({
    queryKey: ["search", trimmed],
    queryFn: ({ signal }) => fetchSearch(trimmed, signal),
    enabled: isSearchable,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
  const result = isSearchable ? search.data : undefined;

  const groups = useMemo(
    () =>
      (result?.groups ?? []).map((group) => ({
        ...group,
        hits: group.hits.map((hit) => ({ ...hit, optionId: `${baseId}-${group.kind}-${hit.id}` }) as TFlatHit),
      })),
    [result, baseId],
  );
  const flatHits = useMemo(() => groups.flatMap((group) => group.hits), [groups]);
  const active = flatHits[Math.min(activeIndex, flatHits.length - 1)];

  // A new result starts at its first hit (reset while rendering, not in an effect).
  const [resultShown, setResultShown] = useState(result);
  if (resultShown !== result) {
    setResultShown(result);
    setActiveIndex(0);
  }

  useEffect(() => {
    if (!active) return;
    document.getElementById(active.optionId)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  function open(hit: TSearchHit) {
    onNavigate();
    router.push(hit.href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = flatHits.length;
    if (event.key === "Enter") {
      if (active) {
        event.preventDefault();
        open(active);
      }
      return;
    }
    if (count === 0) return;
    const moves: Record<string, number> = {
      ArrowDown: (activeIndex + 1) % count,
      ArrowUp: (activeIndex - 1 + count) % count,
      Home: 0,
      End: count - 1,
    };
    if (!(event.key in moves)) return;
    // Home/End keep moving the caret unless there are hits to jump between.
    event.preventDefault();
    setActiveIndex(moves[event.key] ?? 0);
  }

  const isLoading = isSearchable && (search.isFetching || trimmed !== query.trim());
  let status: string;
  if (!isSearchable) status = t("hint");
  else if (search.isError) status = t("error");
  else if (!result) status = t("loading");
  else if (flatHits.length === 0) status = t("empty", { query: result.query });
  else status = t("resultCount", { count: flatHits.length });

  return (
    <div className="flex min-h-0 flex-col">
      <DialogTitle className="sr-only">{t("title")}</DialogTitle>
      <DialogDescription className="sr-only">{t("description")}</DialogDescription>
      <div className="flex items-center gap-2 border-b px-3">
        <SearchIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <input
          role="combobox"
          aria-label={t("inputLabel")}
          aria-expanded={flatHits.length > 0}
          aria-controls={listboxId}
          aria-autocomplete="list"
          aria-activedescendant={active?.optionId}
          autoComplete="off"
          spellCheck={false}
          maxLength={searchQueryMaxLength}
          placeholder={t("placeholder")}
          className="h-12 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-muted-foreground sm:text-sm"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {isLoading ? <Spinner className="size-4 text-muted-foreground" label={t("loading")} /> : null}
      </div>
      <div
        id={listboxId}
        role="listbox"
        aria-label={t("resultsLabel")}
        className="max-h-[min(60dvh,28rem)] overflow-y-auto p-2 empty:hidden"
      >
        {groups.map((group) => (
          // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are ARIA groups (a fieldset is not allowed there)
          <div key={group.kind} role="group" aria-labelledby={`${baseId}-${group.kind}`} className="pb-2">
            <div
              id={`${baseId}-${group.kind}`}
              className="px-2 py-1.5 text-xs font-medium text-muted-foreground"
              role="presentation"
            >
              {t(`kinds.${group.kind}`)}
            </div>
            {group.hits.map((hit) => {
              const isActive = hit.optionId === active?.optionId;
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the keys act on the combobox input (aria-activedescendant)
                <div
                  key={hit.optionId}
                  id={hit.optionId}
                  role="option"
                  aria-selected={isActive}
                  tabIndex={-1}
                  className={cn(
                    "flex cursor-pointer items-center justify-between gap-3 rounded-md px-2 py-2 text-sm",
                    isActive && "bg-accent text-accent-foreground",
                  )}
                  onMouseMove={() => setActiveIndex(flatHits.indexOf(hit))}
                  // Keeps the focus in the input (the combobox) while the pointer picks an option.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => open(hit)}
                >
                  <div className="flex min-w-0 flex-col">
                    <span className="truncate font-medium">{hit.title}</span>
                    {hit.detail ? (
                      <span className="truncate font-mono text-xs text-muted-foreground">{hit.detail}</span>
                    ) : null}
                  </div>
                  <div className="flex shrink-0 flex-col items-end text-xs text-muted-foreground">
                    {hit.amountCents !== null ? (
                      <Money cents={hit.amountCents} className="text-sm text-foreground" />
                    ) : null}
                    {hit.date ? <DateTime value={hit.date} isDateOnly /> : null}
                  </div>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div className="flex items-center justify-between gap-2 border-t px-3 py-2 text-xs text-muted-foreground">
        <p role="status" aria-live="polite" className="min-w-0">
          {status}
        </p>
        <p className="hidden shrink-0 sm:block">{t("keyboardHint")}</p>
      </div>
    </div>
  );
}
