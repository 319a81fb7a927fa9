// Parsed as a browser will read it (tabs and newlines dropped, `\` read as `/`), so `/\t/evil.com` stays on this site.
export function toSameOriginPath(value: unknown, origin: string): string {
  if (typeof value !== "string" || value === "") return "/";
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return "/";
  }
  if (url.origin !== new URL(origin).origin) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `//host/…` would be read as another origin once written into a Location header or `location.assign`.
  return path.startsWith("//") ? "/" : path;
}
