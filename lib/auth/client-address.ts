import { isIP } from "node:net";

// Set by the server itself (installPeerAddressHeader), overwriting any client's: whoever opened the TCP connection.
export const peerAddressHeader = "x-peer-address";

function normalizeAddress(value: string | undefined): string | null {
  const address = value?.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  return address && isIP(address) ? address : null;
}

// Anyone can write X-Forwarded-For: with N trusted proxies, each appending what it saw, the client is the Nth entry
// from the right (the leftmost of a shorter chain, as Express does); with 0 the peer is the client.
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
  return normalizeAddress(chain[Math.max(0, chain.length - trustedProxyHops)]) ?? peer;
}
