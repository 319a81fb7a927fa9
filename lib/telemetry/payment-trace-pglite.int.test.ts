import { afterAll, beforeAll, describe, vi } from "vitest";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { itTracesAPixPaymentEndToEnd } from "./testing/payment-trace";

vi.mock("next/headers", async () => (await import("./testing/next-request-mock")).nextHeadersMock("203.0.113.91"));
vi.mock("next/cache", async () => (await import("./testing/next-request-mock")).nextCacheMock);

describe("one trace per Pix payment (embedded PGlite, the default)", () => {
  let embedded: { close: () => Promise<void> };
  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
  });
  afterAll(async () => {
    await embedded?.close();
  });
  itTracesAPixPaymentEndToEnd();
});
