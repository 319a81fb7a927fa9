import { httpError, type TFieldError } from "./errors";

type TSort = { field: string; direction: "asc" | "desc" };
export type TPaging = { page: number; size: number; sort: TSort[] };

export type TPage<T> = {
  content: T[];
  number: number;
  size: number;
  numberOfElements: number;
  totalElements: number;
  totalPages: number;
  first: boolean;
  last: boolean;
  empty: boolean;
};

const defaultPageSize = 20;
// The spec does not show a maximum page size; the sandbox caps it here (documented in the README).
const maxPageSize = 100;

function parseIntParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
  errors: TFieldError[],
): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) {
    errors.push({ campo: name, erro: "deve ser um número inteiro" });
    return fallback;
  }
  const value = Number(raw);
  if (value < min || value > max) {
    errors.push({ campo: name, erro: `deve estar entre ${min} e ${max}` });
    return fallback;
  }
  return value;
}

/**
 * Reads `page` (from 0), `size` (1..100, default 20) and repeatable `sort=field,direction`
 * (direction asc when omitted). `sortable` lists the accepted sort fields.
 */
export function parsePaging(query: URLSearchParams, sortable: readonly string[]): TPaging {
  const errors: TFieldError[] = [];
  const page = parseIntParam(query, "page", 0, 0, Number.MAX_SAFE_INTEGER, errors);
  const size = parseIntParam(query, "size", defaultPageSize, 1, maxPageSize, errors);
  const sort: TSort[] = [];
  for (const raw of query.getAll("sort")) {
    if (raw === "") continue;
    const [field = "", direction = "asc", ...rest] = raw.split(",").map((part) => part.trim());
    const dir = direction.toLowerCase();
    if (!sortable.includes(field) || (dir !== "asc" && dir !== "desc") || rest.length > 0) {
      errors.push({ campo: "sort", erro: `use campo,asc ou campo,desc com campo em: ${sortable.join(", ")}` });
      continue;
    }
    sort.push({ field, direction: dir });
  }
  if (errors.length > 0) throw httpError(400, "Parâmetros de paginação inválidos", errors);
  return { page, size, sort };
}

type TSortKey = string | number | boolean | null | undefined;

/** Sorts by `paging.sort` (stable, then by the given order) and slices the requested page into the 2.10 envelope. */
export function toPage<T>(
  items: readonly T[],
  paging: TPaging,
  sortKeys: Record<string, (item: T) => TSortKey> = {},
): TPage<T> {
  const sorted =
    paging.sort.length === 0 ? items : [...items].sort((a, b) => compareBySort(a, b, paging.sort, sortKeys));
  const start = paging.page * paging.size;
  const content = sorted.slice(start, start + paging.size);
  const totalPages = Math.ceil(items.length / paging.size);
  return {
    content,
    number: paging.page,
    size: paging.size,
    numberOfElements: content.length,
    totalElements: items.length,
    totalPages,
    first: paging.page === 0,
    last: paging.page >= totalPages - 1,
    empty: content.length === 0,
  };
}

function compareBySort<T>(a: T, b: T, sort: TSort[], sortKeys: Record<string, (item: T) => TSortKey>): number {
  for (const { field, direction } of sort) {
    const key = sortKeys[field] ?? ((item: T) => (item as Record<string, TSortKey>)[field]);
    const left = key(a);
    const right = key(b);
    if (left === right) continue;
    if (left === null || left === undefined) return 1;
    if (right === null || right === undefined) return -1;
    const order = left < right ? -1 : 1;
    return direction === "asc" ? order : -order;
  }
  return 0;
}
