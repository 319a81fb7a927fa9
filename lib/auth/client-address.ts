import { isIP } from "node:net";

// Set on every incoming request by the server itself (installPeerAddressHeader), overwriting anything a client
// sent under that name: the address of whoever opened the TCP connection.
export const peerAddressHeader = "x-peer-address";

function normalizeAddress(value: string | undefined): string | null {
  const address = value?.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  return address && isIP(address) ? address : null;
}

// With `trustedProxyHops` = 0 the peer is the client and X-Forwarded-For is ignored (anyone can write it). With
// N proxies in front, each appending the address it saw, the client is the Nth entry from the right; entries
// further left were written by the client. A chain shorter than N gives its leftmost entry, as Express does.
export function pickClientAddress(
  forwardedFor: string | null,
  peerAddress: string | null,
  trustedProxyHops: number,
): string | null {
  const peer = normalizeAddress(peerAddress ?? undefined);
  if (trustedProxyHops === 0) return peer;
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (chain.length === 0) return peer;
  // A malformed entry from a trusted proxy is a misconfiguration: the peer is the only address still known.
  return normalizeAddress(chain[Math.max(0, chain.length - trustedProxyHops)]) ?? peer;
}
