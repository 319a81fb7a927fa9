import "server-only";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { createLocalJWKSet, errors, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { isInsecureLocalGatewayAllowed } from "@/lib/config/production-env";
import { log } from "@/lib/log";
import {
  assertPublicHost,
  NonPublicAddressError,
  type TResolvedAddress,
  type TResolveHost,
} from "@/lib/security/public-address";

// The URL is tenant-chosen, so this server must not become its probe: public addresses only, pinned (no DNS swap);
// https, no redirects, 64 KiB, 3 s. ALLOW_INSECURE_LOCAL_GATEWAY=1 allows loopback http, as for the gateway.

const jwksMaxBytes = 64 * 1024;
const jwksTimeoutMs = 3_000;
const jwksFailureCooldownMs = 30_000;
const jwksRefetchCooldownMs = 30_000;
/** Keys are refetched after this long even when every kid is known, so a removed key stops working. */
const jwksMaxAgeMs = 10 * 60_000;

export class JwksUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`JWKS could not be fetched: ${reason}`);
    this.name = "JwksUnavailableError";
  }
}

export const jwksResolver: { resolve?: TResolveHost } = {};

type TEntry = {
  keys?: JWTVerifyGetKey;
  fetchedAt: number;
  failedUntil: number;
  failure?: JwksUnavailableError;
  inflight?: Promise<JWTVerifyGetKey>;
};
const entries = new Map<string, TEntry>();

export function forgetJwksCache(): void {
  entries.clear();
}

const ZJwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())).max(100) });

const isLoopbackAddress = (address: string) => address === "::1" || address.startsWith("127.");

async function pinnedAddress(hostname: string): Promise<TResolvedAddress> {
  try {
    return await assertPublicHost(hostname, jwksResolver.resolve);
  } catch (error) {
    if (!(error instanceof NonPublicAddressError)) throw error;
    if (error.address && isLoopbackAddress(error.address) && isInsecureLocalGatewayAllowed())
      return { address: error.address, family: isIP(error.address) === 6 ? 6 : 4 };
    throw new JwksUnavailableError(error.reason === "unresolved" ? "unresolved" : "non-public address");
  }
}

function getCapped(target: URL, pinned: TResolvedAddress): Promise<string> {
  // The socket asks this for the host's address: the one checked above, never a new DNS answer.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: TResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise((resolve, reject) => {
    const client = target.protocol === "https:" ? https : http;
    const request = client.get(
      target,
      { lookup, agent: false, headers: { accept: "application/json" } },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new JwksUnavailableError(`status ${response.statusCode}`));
        }
        if (Number(response.headers["content-length"] ?? 0) > jwksMaxBytes) {
          request.destroy();
          return reject(new JwksUnavailableError("larger than 64 KiB"));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > jwksMaxBytes) {
            request.destroy();
            reject(new JwksUnavailableError("larger than 64 KiB"));
          } else chunks.push(chunk);
        });
        response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        response.on("error", () => reject(new JwksUnavailableError("connection failed")));
      },
    );
    const timer = setTimeout(() => request.destroy(new JwksUnavailableError("timed out")), jwksTimeoutMs);
    request.on("close", () => clearTimeout(timer));
    request.on("error", (error) =>
      reject(error instanceof JwksUnavailableError ? error : new JwksUnavailableError("connection failed")),
    );
  });
}

export async function checkJwksUrl(url: string): Promise<{ target: URL; pinned: TResolvedAddress }> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new JwksUnavailableError("invalid URL");
  }
  const isLocalAllowed = isInsecureLocalGatewayAllowed();
  if (target.protocol !== "https:" && !(isLocalAllowed && target.protocol === "http:"))
    throw new JwksUnavailableError("not https");
  const pinned = await pinnedAddress(target.hostname);
  // An http URL is only for the loopback allowance, never towards a public host.
  if (target.protocol === "http:" && !isLoopbackAddress(pinned.address)) throw new JwksUnavailableError("not https");
  return { target, pinned };
}

async function fetchJwks(url: string): Promise<JWTVerifyGetKey> {
  const { target, pinned } = await checkJwksUrl(url);
  const text = await getCapped(target, pinned);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new JwksUnavailableError("not JSON");
  }
  const parsed = ZJwks.safeParse(json);
  if (!parsed.success) throw new JwksUnavailableError("not a JWKS");
  try {
    return createLocalJWKSet(parsed.data as Parameters<typeof createLocalJWKSet>[0]);
  } catch {
    throw new JwksUnavailableError("not a JWKS");
  }
}

async function keysOf(url: string, isUnknownKid: boolean): Promise<JWTVerifyGetKey> {
  const now = Date.now();
  let entry = entries.get(url);
  if (!entry) {
    if (entries.size >= 1_000) entries.clear();
    entry = { fetchedAt: 0, failedUntil: 0 };
    entries.set(url, entry);
  }
  const isFresh = Boolean(entry.keys) && now - entry.fetchedAt < (isUnknownKid ? jwksRefetchCooldownMs : jwksMaxAgeMs);
  if (entry.keys && (isFresh || entry.failedUntil > now)) return entry.keys;
  if (entry.failedUntil > now) throw entry.failure!;
  entry.inflight ??= fetchAndRemember(url, entry);
  return entry.inflight;
}

function fetchAndRemember(url: string, entry: TEntry): Promise<JWTVerifyGetKey> {
  return fetchJwks(url)
    .then((keys) => {
      Object.assign(entry, { keys, fetchedAt: Date.now(), failedUntil: 0, failure: undefined });
      return keys;
    })
    .catch((error: unknown) => {
      const failure = error instanceof JwksUnavailableError ? error : new JwksUnavailableError("failed");
      Object.assign(entry, { failedUntil: Date.now() + jwksFailureCooldownMs, failure });
      log.warn({ event: "pos.jwks_failed", url, reason: failure.reason }, "seller token JWKS could not be fetched");
      // Keys fetched before stay in use until the URL answers again.
      if (entry.keys) return entry.keys;
      throw failure;
    })
    .finally(() => {
      entry.inflight = undefined;
    });
}

export function pinnedJwks(url: string): JWTVerifyGetKey {
  return async (header, token) => {
    const keys = await keysOf(url, false);
    try {
      return await keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      const refreshed = await keysOf(url, true);
      if (refreshed === keys) throw error;
      return refreshed(header, token);
    }
  };
}
