import type { TPermission } from "@/lib/auth/permissions";
import "server-only";
import { createLoader } from "nuqs/server";
import { readDb } from "@/lib/db/read-replica";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createListParsers, listFiltersOf, toListFilters } from "@/lib/list/search-params";
import { listBatches, type TListBatchQuery, type TListSpec } from "@/lib/list/spec";
import type { TResourceExportKind } from "@/lib/resources/registry";
import type { TCellFormat } from "./format";

// A list's CSV export: its list spec (lib/list/spec.ts), extra columns and cells, read in keyset batches, never all at once.

export type TExportKind = TResourceExportKind | "audit";

/** A column's header is `common.exportColumns.<kind>.<key>` in the reader's catalog. */
type TExportColumn<TRecord> = {
  key: string;
  /** `now` is the export's start: a row's status is read as of then, as the page reads it as of its request. */
  cell: (record: TRecord, format: TCellFormat, now: Date) => string | number;
};

type TExportFilters = Record<string, unknown>;

export type TExportList = {
  kind: TExportKind;
  /** Its URL: `/api/exports/<path>`, the kind in kebab case ("pix-charges"). */
  path: string;
  // Who may download it, beyond exports.download: who may open its page.
  permission: TPermission;
  fileName: string;
  columnKeys: string[];
  /** The URL's filters read by the page's own parsers (same zod schema), sort, order, page and cursor left out. */
  readFilters: (search: URLSearchParams) => TExportFilters;
  batches: (filters: TExportFilters, format: TCellFormat, batchSize: number) => AsyncGenerator<(string | number)[][]>;
};

type TSelect = Record<string, true>;

export function defineExportList<
  TFilters,
  TWhere,
  TListSelect extends TSelect,
  TField extends keyof TListSelect & string,
  TTieBreaker extends keyof TListSelect & string,
  TRecord extends Record<TField | TTieBreaker, unknown>,
  TExtra extends TSelect = Record<never, never>,
>(definition: {
  kind: TExportKind;
  permission: TPermission;
  fileName: string;
  list: TListSpec<TFilters, TWhere, TListSelect, TField, TTieBreaker>;
  select?: TExtra;
  /** `reader`: the read replica when there is one (lib/db/read-replica.ts). */
  findMany: (
    query: TListBatchQuery<TWhere, TListSelect & TExtra, TField, TTieBreaker>,
    reader: PrismaClient,
  ) => Promise<TRecord[]>;
  columns: TExportColumn<TRecord>[];
}): TExportList {
  const { list, columns } = definition;
  const load = createLoader(createListParsers(list.schema.shape));
  const spec = { ...list, select: { ...list.select, ...definition.select } as TListSelect & TExtra };
  return {
    kind: definition.kind,
    path: definition.kind.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
    permission: definition.permission,
    fileName: definition.fileName,
    columnKeys: columns.map((column) => column.key),
    readFilters: (search) => listFiltersOf(toListFilters(load(search))),
    async *batches(filters, format, batchSize) {
      const now = new Date();
      const reader = await readDb();
      const findMany = (query: TListBatchQuery<TWhere, TListSelect & TExtra, TField, TTieBreaker>) =>
        definition.findMany(query, reader);
      for await (const records of listBatches(spec, filters as TFilters, now, findMany, batchSize))
        yield records.map((record) => columns.map((column) => column.cell(record, format, now)));
    },
  };
}
