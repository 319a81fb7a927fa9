import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { describe, vi } from "vitest";
import { startTelemetry } from "./start";
import { itTracesAPixPaymentEndToEnd } from "./testing/payment-trace";

const jar = vi.hoisted(() => new Map<string, string>());
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    getAll: () => [...jar].map(([name, value]) => ({ name, value })),
    has: (name: string) => jar.has(name),
    set: () => {},
    delete: () => {},
  }),
  headers: async () => new Headers({ "user-agent": "payment-trace", "x-forwarded-for": "203.0.113.90" }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const exporter = new InMemorySpanExporter();
startTelemetry({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

describe("one trace per Pix payment (PostgreSQL)", () => {
  itTracesAPixPaymentEndToEnd(exporter, jar);
});
