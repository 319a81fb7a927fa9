import type { z } from "zod";
import { keysetWhere, type TCursorValue } from "./cursor";
import { orderByThen } from "./query";

// What a list's page and its CSV export share (docs/exports.md), so the two cannot drift apart.

type TSelect = Record<string, true>;

export type TListSpec<
  TFilters,
  TWhere,
  TListSelect extends TSelect,
  TField extends keyof TListSelect & string,
  TTieBreaker extends keyof TListSelect & string,
> = {
  schema: z.ZodObject<Record<string, z.ZodType>>;
  where: (filters: TFilters, now: Date) => TWhere | Promise<TWhere>;
  select: TListSelect;
  /** The default order: this column (a date), newest first, then the unique tie-breaker. */
  field: TField;
  tieBreaker: TTieBreaker;
};

export function defineListSpec<
  TFilters,
  TWhere,
  const TListSelect extends TSelect,
  const TField extends keyof TListSelect & string,
  const TTieBreaker extends keyof TListSelect & string,
>(spec: TListSpec<TFilters, TWhere, TListSelect, TField, TTieBreaker>) {
  return spec;
}

export type TListBatchQuery<TWhere, TBatchSelect, TField extends string, TTieBreaker extends string> = {
  where: TWhere;
  select: TBatchSelect;
  orderBy: ReturnType<typeof orderByThen<TField, TTieBreaker>>;
  take: number;
};

/** Every row the filters select, `batchSize` at a time by the pages' keyset, so none is skipped or read twice. */
export async function* listBatches<
  TFilters,
  TWhere,
  TBatchSelect extends TSelect,
  TField extends keyof TBatchSelect & string,
  TTieBreaker extends keyof TBatchSelect & string,
  TRecord extends Record<TField | TTieBreaker, unknown>,
>(
  spec: TListSpec<TFilters, TWhere, TBatchSelect, TField, TTieBreaker>,
  filters: TFilters,
  now: Date,
  read: (query: TListBatchQuery<TWhere, TBatchSelect, TField, TTieBreaker>) => Promise<TRecord[]>,
  batchSize: number,
): AsyncGenerator<TRecord[]> {
  const where = await spec.where(filters, now);
  const orderBy = orderByThen(spec.field, spec.tieBreaker, "desc");
  let last: TRecord | undefined;
  while (true) {
    const after = last && {
      value: last[spec.field] as TCursorValue,
      id: String(last[spec.tieBreaker]),
    };
    const batchWhere = after
      ? ({ AND: [where, keysetWhere(spec.field, spec.tieBreaker, "desc", after)] } as TWhere)
      : where;
    const records = await read({ where: batchWhere, select: spec.select, orderBy, take: batchSize });
    if (records.length > 0) yield records;
    if (records.length < batchSize) return;
    last = records.at(-1);
  }
}
