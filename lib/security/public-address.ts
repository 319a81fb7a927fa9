import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// SSRF guard: every resolved address must be public; the caller pins the one returned, so DNS cannot swap it.

export type TResolvedAddress = { address: string; family: 4 | 6 };
export type TResolveHost = (host: string) => Promise<TResolvedAddress[]>;

export class NonPublicAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string | null,
    readonly reason: "not_public" | "unresolved",
  ) {
    super(
      reason === "unresolved" ? `${host} does not resolve` : `${host} resolves to a non-public address (${address})`,
    );
    this.name = "NonPublicAddressError";
  }
}

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  nonPublic.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  nonPublic.addSubnet(network, prefix, "ipv6");

function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const before = parse(head);
  const after = parse(tail);
  const missing = tail === undefined ? 0 : 8 - before.length - after.length;
  return [...before, ...Array<number>(missing).fill(0), ...after];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

function embeddedIpv4(groups: number[]): string | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0) && !zeros(6, 8)) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return ipv4Of(groups[1]!, groups[2]!);
  return null;
}

export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare.split("%")[0]!);
  if (family === 4) return !nonPublic.check(bare, "ipv4");
  if (family !== 6) return false;
  const embedded = embeddedIpv4(ipv6Groups(bare));
  if (embedded) return isPublicAddress(embedded);
  return !nonPublic.check(bare.split("%")[0]!, "ipv6");
}

const resolveWithDns: TResolveHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

export async function assertPublicHost(
  host: string,
  resolve: TResolveHost = resolveWithDns,
): Promise<TResolvedAddress> {
  const bare = host.replace(/^\[|\]$/g, "");
  const literal = isIP(bare);
  let addresses: TResolvedAddress[];
  if (literal) addresses = [{ address: bare, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(bare);
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) throw new NonPublicAddressError(host, null, "unresolved");
  const blocked = addresses.find(({ address }) => !isPublicAddress(address));
  if (blocked) throw new NonPublicAddressError(host, blocked.address, "not_public");
  return addresses[0]!;
}
