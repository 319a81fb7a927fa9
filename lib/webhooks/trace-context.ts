import "server-only";
import type { Link } from "@opentelemetry/api";
import { runSql } from "@/lib/db/sql";
import { activeSpanContext, contextOfTraceParent, isTraceExporting, withSpan } from "@/lib/telemetry/tracing";
import type { TParsedBody } from "./event-identity";

// The gateway does not send our trace context back: the creating request's traceparent, stored with the row, is the
// parent of the delivery's span (read before apply's own read, which runs inside it), the receiving request a link.
async function storedTraceParent(parsed: TParsedBody): Promise<string | null> {
  if (!isTraceExporting() || !parsed.isUsable) return null;
  const { table, key } = parsed.parsed.kind.row;
  const [row] = await runSql<{ traceParent: string | null }>(
    `SELECT "traceParent" FROM "${table}" WHERE "${key}" = $1::text`,
    [parsed.identity.resourceId],
  );
  return row?.traceParent ?? null;
}

export async function applyInTraceOfResource<T>(parsed: TParsedBody, apply: () => Promise<T>): Promise<T> {
  const attributes = parsed.isUsable
    ? { "webhook.resource_type": parsed.identity.resourceType, "webhook.resource_id": parsed.identity.resourceId }
    : {};
  const parent = contextOfTraceParent(await storedTraceParent(parsed));
  const receiving = activeSpanContext();
  const links: Link[] = parent && receiving ? [{ context: receiving }] : [];
  return withSpan("webhook delivery applied", attributes, apply, { parent, links });
}
