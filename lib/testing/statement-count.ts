import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { startTelemetry } from "@/lib/telemetry/start";

// Every statement is a span while spans are exported (lib/db/traced-adapter.ts): Prisma's and the raw ones sent through
// pg's pool alike. Call at a test file's top level.
export function trackDatabaseStatements() {
  const exporter = new InMemorySpanExporter();
  startTelemetry({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return {
    statements: (): string[] =>
      exporter
        .getFinishedSpans()
        .filter((span) => span.name.startsWith("db "))
        .map((span) => String(span.attributes["db.query.text"])),
    reset(): void {
      exporter.reset();
    },
  };
}
