import "server-only";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { withLeafSpan } from "@/lib/telemetry/tracing";

// While spans are exported, one span per SQL statement, at the driver adapter (PostgreSQL and PGlite alike). The text
// has placeholders, never values.
const tracedMethods = new Set<PropertyKey>(["queryRaw", "executeRaw"]);
// Enough to tell the statement; Prisma's full SELECTs run to kilobytes, and each span is serialized for export.
const maxQueryTextLength = 160;

function tracedQuery(run: (query: { sql: string }) => Promise<unknown>, system: string) {
  return (query: { sql: string }) => {
    const operation = /^\s*(\w+)/.exec(query.sql)?.[1]?.toUpperCase() ?? "SQL";
    const attributes = {
      "db.system.name": system,
      "db.operation.name": operation,
      "db.query.text": query.sql.slice(0, maxQueryTextLength),
    };
    return withLeafSpan(`db ${operation}`, attributes, () => run(query));
  };
}

function traced<T extends object>(target: T, system: string): T {
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object);
      if (typeof value !== "function") return value;
      const known = wrappers.get(key);
      if (known) return known;
      let wrapper: unknown;
      if (tracedMethods.has(key)) wrapper = tracedQuery(value.bind(object), system);
      else if (key === "connect" || key === "startTransaction")
        wrapper = async (...args: unknown[]) => traced(await value.apply(object, args), system);
      else wrapper = value.bind(object);
      wrappers.set(key, wrapper);
      return wrapper;
    },
  });
}

export function tracedAdapter<T extends SqlDriverAdapterFactory>(factory: T, system: string): T {
  return traced(factory, system);
}
