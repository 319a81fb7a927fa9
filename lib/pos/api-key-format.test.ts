import { describe, expect, it } from "vitest";
import { generatePosApiKey, hashPosApiKey, isPosApiKeyFormat, parseBearer, posApiKeyPrefix } from "./api-key-format";

describe("POS API key format", () => {
  it("generates distinct well-formed keys whose prefix is part of the key", () => {
    const first = generatePosApiKey();
    const second = generatePosApiKey();
    expect(first.key).not.toBe(second.key);
    expect(first.key).toMatch(/^pos_live_[\w-]{8}_[\w-]{43}$/);
    expect(isPosApiKeyFormat(first.key)).toBe(true);
    expect(posApiKeyPrefix(first.key)).toBe(first.prefix);
    expect(posApiKeyPrefix("pos_live_short_x")).toBeNull();
  });

  it("hashes with SHA-256 hex, deterministically", () => {
    const { key } = generatePosApiKey();
    expect(hashPosApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashPosApiKey(key)).toBe(hashPosApiKey(key));
    expect(hashPosApiKey(`${key}x`)).not.toBe(hashPosApiKey(key));
  });

  it("reads the credential of a Bearer header only", () => {
    expect(parseBearer("Bearer abc")).toBe("abc");
    expect(parseBearer("bearer  abc ")).toBe("abc");
    expect(parseBearer("Basic abc")).toBeNull();
    expect(parseBearer("Bearer")).toBeNull();
    expect(parseBearer("Bearer a b")).toBeNull();
    expect(parseBearer(null)).toBeNull();
    expect(parseBearer("")).toBeNull();
  });
});
