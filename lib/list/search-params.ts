import {
  createParser,
  createSerializer,
  parseAsString,
  parseAsStringLiteral,
  type SingleParserBuilder,
} from "nuqs/server";
import type { z } from "zod";

import { centsToAmountString } from "@/lib/shared/money";
import { sortOrders, type TSortOrder } from "./schemas";

// nuqs parsers made from the lists' zod filter schemas, so each field's rule is written once.

type WithDefault<T> = ReturnType<SingleParserBuilder<T>["withDefault"]>;

type TListParser<TField extends z.ZodType> =
  undefined extends z.output<TField>
    ? SingleParserBuilder<NonNullable<z.output<TField>>>
    : WithDefault<z.output<TField>>;

export type TListParsers<TShape extends Record<string, z.ZodType>> = { [K in keyof TShape]: TListParser<TShape[K]> };

// What the schema drops (`.catch`) reads as absent.
function parseAsSchema<TField extends z.ZodType>(field: TField): SingleParserBuilder<NonNullable<z.output<TField>>> {
  return createParser({
    parse: (value: string) => (field.safeParse(value).data ?? null) as NonNullable<z.output<TField>> | null,
    serialize: (value) => String(value),
  });
}

// Cents inside, reais in the URL ("?minAmount=123.45"), so a shared link reads as typed.
export function parseAsAmountCents(field: z.ZodType<number | undefined>): SingleParserBuilder<number> {
  return createParser({
    parse: (value: string) => field.safeParse(value).data ?? null,
    serialize: (cents) => centsToAmountString(cents),
  });
}

export function createListParsers<TShape extends Record<string, z.ZodType>>(shape: TShape): TListParsers<TShape> {
  return Object.fromEntries(
    Object.entries(shape).map(([key, field]) => {
      const parser = parseAsSchema(field);
      const fallback = field.safeParse(undefined).data;
      return [key, fallback === undefined || fallback === null ? parser : parser.withDefault(fallback)];
    }),
  ) as unknown as TListParsers<TShape>;
}

type ListFilters<TValues> = {
  [K in keyof TValues]: null extends TValues[K] ? Exclude<TValues[K], null> | undefined : TValues[K];
};

export function toListFilters<TValues extends Record<string, unknown>>(values: TValues): ListFilters<TValues> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, value ?? undefined]),
  ) as ListFilters<TValues>;
}

const notFilters = new Set(["sort", "order", "page", "cursor"]);

/** The filters that are set, without the sort and paging (they say how to show the rows, not which). */
export function listFiltersOf(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([key, value]) => !notFilters.has(key) && value !== null && value !== undefined),
  );
}

export function countListFilters(values: Record<string, unknown>): number {
  const keys = Object.keys(listFiltersOf(values)).map((key) => (key === "from" || key === "to" ? "period" : key));
  return new Set(keys).size;
}

export function hasListFilters(values: Record<string, unknown>): boolean {
  return countListFilters(values) > 0;
}

export const sortSearchParams = {
  sort: parseAsString,
  order: parseAsStringLiteral(sortOrders),
  page: parseAsString,
  cursor: parseAsString,
};
const serializeSort = createSerializer(sortSearchParams);

export type TSortState = { column: string; order: TSortOrder };

export function nextSortOrder(current: TSortState | null, column: string, firstOrder: TSortOrder): TSortOrder {
  if (current?.column !== column) return firstOrder;
  return current.order === "asc" ? "desc" : "asc";
}

// Back to the first page: page 5 (or a cursor) of a different order is a different set of rows.
export function buildSortHref(pathname: string, search: URLSearchParams, column: string, order: TSortOrder): string {
  return serializeSort(`${pathname}?${search.toString()}`, { sort: column, order, page: null, cursor: null });
}
