import { beforeEach, describe, expect, it, vi } from "vitest";

const isDatabaseHealthy = vi.fn<() => Promise<boolean>>();
vi.mock("@/lib/db/health", () => ({ isDatabaseHealthy }));

const { GET } = await import("./route");

describe("GET /api/health", () => {
  beforeEach(() => isDatabaseHealthy.mockReset());

  it("answers 200 when the database answers", async () => {
    isDatabaseHealthy.mockResolvedValue(true);
    const response = await GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("answers 503 without details when the database fails", async () => {
    isDatabaseHealthy.mockResolvedValue(false);
    const response = await GET();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "error", database: "unavailable" });
  });
});
