export type SortOrder = "asc" | "desc";
export type SortState = { column: string; order: SortOrder } | null;

/** URL parameter names a list uses for sorting and paging; lists may rename them (two tables on one page). */
export type SortParamNames = { sort: string; order: string; page: string };
export const defaultSortParamNames: SortParamNames = { sort: "sort", order: "order", page: "page" };

export function readSort(params: URLSearchParams, names: SortParamNames = defaultSortParamNames): SortState {
  const column = params.get(names.sort);
  if (!column) return null;
  return { column, order: params.get(names.order) === "asc" ? "asc" : "desc" };
}

/**
 * The URL that sorts by `column`: a first click uses `firstOrder`, a click on the sorted column
 * flips the order. Other parameters (filters) are kept, and the page goes back to the first,
 * since page 5 of a different order is a different set of rows.
 */
export function buildSortHref(
  pathname: string,
  params: URLSearchParams,
  column: string,
  firstOrder: SortOrder = "desc",
  names: SortParamNames = defaultSortParamNames,
): string {
  const current = readSort(params, names);
  const order: SortOrder = current?.column === column ? (current.order === "asc" ? "desc" : "asc") : firstOrder;
  const next = new URLSearchParams(params);
  next.set(names.sort, column);
  next.set(names.order, order);
  next.delete(names.page);
  return `${pathname}?${next.toString()}`;
}
