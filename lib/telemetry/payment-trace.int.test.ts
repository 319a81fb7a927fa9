import { describe, vi } from "vitest";
import { itTracesAPixPaymentEndToEnd } from "./testing/payment-trace";

vi.mock("next/headers", async () => (await import("./testing/next-request-mock")).nextHeadersMock("203.0.113.90"));
vi.mock("next/cache", async () => (await import("./testing/next-request-mock")).nextCacheMock);

describe("one trace per Pix payment (PostgreSQL)", () => {
  itTracesAPixPaymentEndToEnd();
});
