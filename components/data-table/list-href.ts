type ListParamValue = string | number | null | undefined;

/**
 * The URL of a list page with these search params, empty values left out and the first page
 * implied, so filtered, sorted and paged views can be reloaded and shared.
 */
export function buildListHref(pathname: string, params: Record<string, ListParamValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue;
    if (key === "page" && Number(value) <= 1) continue;
    search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${pathname}?${query}` : pathname;
}
