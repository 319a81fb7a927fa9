import "server-only";
import { headers } from "next/headers";

export type TRequestContext = { ip: string | null; userAgent: string | null };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function readHeader(source: HeaderSource, name: string): string | null {
  const value = source instanceof Headers ? source.get(name) : source[name];
  return (Array.isArray(value) ? value.join(",") : value) || null;
}

// The last X-Forwarded-For entry is the address the nearest proxy saw (Next.js itself fills the
// header from the socket when absent); earlier entries come from the client and can be forged.
export function readRequestContext(source: HeaderSource): TRequestContext {
  const forwardedFor = readHeader(source, "x-forwarded-for")?.split(",").at(-1)?.trim();
  return {
    ip: forwardedFor || readHeader(source, "x-real-ip"),
    userAgent: readHeader(source, "user-agent")?.slice(0, 500) ?? null,
  };
}

export async function getRequestContext(): Promise<TRequestContext> {
  return readRequestContext(await headers());
}
