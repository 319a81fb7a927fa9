import "server-only";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { withLeafSpan } from "@/lib/telemetry/tracing";

// While spans are exported, one span per SQL statement, at the driver adapter (PostgreSQL and PGlite alike). The text
// has placeholders, never values.
const tracedMethods = new Set<PropertyKey>(["queryRaw", "executeRaw"]);
// Enough to tell the statement; Prisma's full SELECTs run to kilobytes, and each span is serialized for export.
const maxQueryTextLength = 160;

function traced<T extends object>(target: T, system: string): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object);
      if (typeof value !== "function") return value;
      if (tracedMethods.has(key)) {
        return (query: { sql: string }) => {
          const operation = /^\s*(\w+)/.exec(query.sql)?.[1]?.toUpperCase() ?? "SQL";
          const attributes = {
            "db.system.name": system,
            "db.operation.name": operation,
            "db.query.text": query.sql.slice(0, maxQueryTextLength),
          };
          return withLeafSpan(`db ${operation}`, attributes, () => value.call(object, query));
        };
      }
      if (key === "connect" || key === "startTransaction") {
        return async (...args: unknown[]) => traced(await value.apply(object, args), system);
      }
      return value.bind(object);
    },
  });
}

export function tracedAdapter<T extends SqlDriverAdapterFactory>(factory: T, system: string): T {
  return traced(factory, system);
}
