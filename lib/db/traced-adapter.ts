import "server-only";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { getTelemetryEnv } from "@/lib/config/telemetry-env";
import { isTraceExporting, withLeafSpan } from "@/lib/telemetry/tracing";

// While spans are exported, one span per SQL statement, at the driver adapter (PostgreSQL and PGlite alike). The text
// has placeholders, never values.
const tracedMethods = new Set<PropertyKey>(["queryRaw", "executeRaw"]);
// Enough to tell the statement; Prisma's full SELECTs run to kilobytes, and each span is serialized for export.
const maxQueryTextLength = 160;

export function isStatementTracing(): boolean {
  return isTraceExporting() && getTelemetryEnv().TRACE_SQL_STATEMENTS === "1";
}

// Also the raw statements sent through pg's pool (lib/db/sql.ts), which Prisma's adapter does not see.
export function withStatementSpan<T>(sql: string, system: string, run: () => Promise<T>): Promise<T> {
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "SQL";
  const attributes = {
    "db.system.name": system,
    "db.operation.name": operation,
    "db.query.text": sql.slice(0, maxQueryTextLength),
  };
  return withLeafSpan(`db ${operation}`, attributes, run);
}

function tracedQuery(run: (query: { sql: string }) => Promise<unknown>, system: string) {
  return (query: { sql: string }) => withStatementSpan(query.sql, system, () => run(query));
}

// A plain object, not a Proxy: Prisma reads the adapter's members on every query, and a trap runs on each read.
function traced<T extends object>(target: T, system: string): T {
  const delegate: Record<PropertyKey, unknown> = {};
  for (let owner: object | null = target; owner && owner !== Object.prototype; owner = Object.getPrototypeOf(owner)) {
    for (const key of Reflect.ownKeys(owner)) {
      if (key === "constructor" || key in delegate) continue;
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") {
        Object.defineProperty(delegate, key, { get: () => Reflect.get(target, key, target), enumerable: true });
      } else if (tracedMethods.has(key)) delegate[key] = tracedQuery(value.bind(target), system);
      else if (key === "connect" || key === "startTransaction")
        delegate[key] = async (...args: unknown[]) => traced(await value.apply(target, args), system);
      else delegate[key] = value.bind(target);
    }
  }
  return delegate as T;
}

export function tracedAdapter<T extends SqlDriverAdapterFactory>(factory: T, system: string): T {
  return traced(factory, system);
}
