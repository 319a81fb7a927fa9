import { describe, expect, it } from "vitest";
import { pickClientAddress } from "./client-address";

describe("pickClientAddress", () => {
  it("with no trusted proxy, uses the connecting address and ignores X-Forwarded-For", () => {
    expect(pickClientAddress("6.6.6.6", "198.51.100.7", 0)).toBe("198.51.100.7");
    expect(pickClientAddress("6.6.6.6, 7.7.7.7", "::ffff:198.51.100.7", 0)).toBe("198.51.100.7");
    expect(pickClientAddress(null, "2001:db8::1", 0)).toBe("2001:db8::1");
  });

  it("without a connecting address, trusts nothing rather than the header", () => {
    expect(pickClientAddress("6.6.6.6", null, 0)).toBeNull();
  });

  it("behind N proxies, takes the Nth entry from the right, whatever the client prepended", () => {
    expect(pickClientAddress("203.0.113.9", "127.0.0.1", 1)).toBe("203.0.113.9");
    expect(pickClientAddress("6.6.6.6, 203.0.113.9", "127.0.0.1", 1)).toBe("203.0.113.9");
    expect(pickClientAddress("6.6.6.6,203.0.113.9 , 10.0.0.2", "127.0.0.1", 2)).toBe("203.0.113.9");
  });

  it("takes the leftmost entry of a chain shorter than the hops, and the peer when there is none", () => {
    expect(pickClientAddress("203.0.113.9", "127.0.0.1", 3)).toBe("203.0.113.9");
    expect(pickClientAddress(null, "127.0.0.1", 1)).toBe("127.0.0.1");
    expect(pickClientAddress(" , ", "127.0.0.1", 1)).toBe("127.0.0.1");
  });

  it("never returns something that is not an IP address", () => {
    expect(pickClientAddress("<script>, not-an-ip", "127.0.0.1", 1)).toBe("127.0.0.1");
    expect(pickClientAddress("203.0.113.9:443", "127.0.0.1", 1)).toBe("127.0.0.1");
    expect(pickClientAddress(null, "garbage", 0)).toBeNull();
  });
});
