"use client";

import { type ParserMap, type SingleParser, useQueryStates } from "nuqs";
import { type FormEvent, useTransition } from "react";

import { countListFilters } from "@/lib/list/search-params";

/**
 * A list's filter form over the list's nuqs parsers: the inputs start from the URL, and a submit
 * writes the typed filters back (first page, order kept) and renders the list again on the server.
 * Without JavaScript the same form submits as a plain GET to the same URL.
 */
export function useFilterForm<TParsers extends ParserMap>(parsers: TParsers) {
  const [values, setValues] = useQueryStates(parsers, { shallow: false, history: "push", scroll: false });
  const [isPending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Record<string, unknown> = { page: null, ...("cursor" in parsers ? { cursor: null } : {}) };
    for (const [key, value] of new FormData(event.currentTarget)) {
      const parser = parsers[key] as SingleParser<unknown> | undefined;
      if (parser && typeof value === "string") next[key] = value ? parser.parse(value) : null;
    }
    void setValues(next as Parameters<typeof setValues>[0], { startTransition });
  }

  return {
    values,
    onSubmit,
    isPending,
    filterCount: countListFilters(values),
    // The inputs are uncontrolled: a new URL (Clear, Back) mounts the form again with its values.
    formKey: JSON.stringify(values),
  };
}
