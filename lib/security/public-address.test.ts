import { describe, expect, it } from "vitest";
import { assertPublicHost, isPublicAddress, NonPublicAddressError, type TResolveHost } from "./public-address";

const dns =
  (answers: Record<string, string[]>): TResolveHost =>
  async (host) => {
    const addresses = answers[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

describe("isPublicAddress", () => {
  it("refuses loopback, private, link-local, unspecified, shared and reserved IPv4", () => {
    for (const address of [
      "127.0.0.1",
      "127.1.2.3",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "192.0.2.10",
      "224.0.0.1",
      "255.255.255.255",
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it("refuses IPv6 loopback, unspecified, unique-local, link-local and IPv4-mapped private addresses", () => {
    for (const address of [
      "::1",
      "[::1]",
      "::",
      "[::]",
      "fd00::1",
      "fe80::1%eth0",
      "::ffff:127.0.0.1",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "::ffff:10.0.0.1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::7f00:1",
      "2002:7f00:1::1",
      "2001:db8::1",
      "ff02::1",
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it("accepts public unicast addresses, also IPv4-mapped ones", () => {
    for (const address of ["8.8.8.8", "200.160.2.3", "172.32.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"])
      expect(isPublicAddress(address), address).toBe(true);
    expect(isPublicAddress("not-an-ip")).toBe(false);
  });
});

describe("assertPublicHost", () => {
  const resolve = dns({
    "api.gateway.example": ["200.160.2.3", "2001:4860:4860::8888"],
    "localhost.": ["127.0.0.1"],
    localhost: ["::1", "127.0.0.1"],
    "split.example": ["200.160.2.3", "10.0.0.5"],
    "metadata.example": ["169.254.169.254"],
  });

  it("returns the first resolved address to pin when every address is public", async () => {
    expect(await assertPublicHost("api.gateway.example", resolve)).toEqual({ address: "200.160.2.3", family: 4 });
    expect(await assertPublicHost("[2001:4860:4860::8888]", resolve)).toEqual({
      address: "2001:4860:4860::8888",
      family: 6,
    });
  });

  it("refuses names and literals that reach this machine or its network", async () => {
    for (const host of ["localhost.", "localhost", "[::]", "[::ffff:127.0.0.1]", "split.example", "metadata.example"]) {
      const error = await assertPublicHost(host, resolve).catch((caught: unknown) => caught);
      expect(error, host).toBeInstanceOf(NonPublicAddressError);
      expect((error as NonPublicAddressError).reason).toBe("not_public");
    }
  });

  it("refuses a name that does not resolve", async () => {
    await expect(assertPublicHost("nowhere.example", resolve)).rejects.toMatchObject({ reason: "unresolved" });
  });
});
