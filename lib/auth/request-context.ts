import "server-only";
import { headers } from "next/headers";
import { serverEnv } from "@/lib/config/server-env";
import { peerAddressHeader, pickClientAddress } from "./client-address";

export type TRequestContext = { ip: string | null; userAgent: string | null };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function readHeader(source: HeaderSource, name: string): string | null {
  const value = source instanceof Headers ? source.get(name) : source[name];
  return (Array.isArray(value) ? value.join(",") : value) || null;
}

// Null when the server did not stamp the peer address, so a forged header is never trusted instead.
export function readRequestContext(
  source: HeaderSource,
  trustedProxyHops: number = serverEnv.TRUSTED_PROXY_HOPS,
): TRequestContext {
  return {
    ip: pickClientAddress(
      readHeader(source, "x-forwarded-for"),
      readHeader(source, peerAddressHeader),
      trustedProxyHops,
    ),
    userAgent: readHeader(source, "user-agent")?.slice(0, 500) ?? null,
  };
}

export async function getRequestContext(): Promise<TRequestContext> {
  return readRequestContext(await headers());
}
