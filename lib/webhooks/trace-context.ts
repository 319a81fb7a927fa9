import "server-only";
import type { Link } from "@opentelemetry/api";
import { activeSpanContext, contextOfTraceParent, isTraceExporting, withSpan } from "@/lib/telemetry/tracing";
import type { TParsedBody } from "./event-identity";

// The gateway does not send our trace context back: the creating request's traceparent, stored with the row, is the
// parent of the delivery's span (read by the receiver's first statement, before apply), the receiving request a link.
export function tracedRowOf(parsed: TParsedBody): { table: string; key: string; resourceId: string } | null {
  if (!isTraceExporting() || !parsed.isUsable) return null;
  const { table, key } = parsed.parsed.kind.row;
  return { table, key, resourceId: parsed.identity.resourceId };
}

export async function applyInTraceOfResource<T>(
  parsed: TParsedBody,
  traceParent: string | null,
  apply: () => Promise<T>,
): Promise<T> {
  const attributes = parsed.isUsable
    ? { "webhook.resource_type": parsed.identity.resourceType, "webhook.resource_id": parsed.identity.resourceId }
    : {};
  const parent = contextOfTraceParent(traceParent);
  const receiving = activeSpanContext();
  const links: Link[] = parent && receiving ? [{ context: receiving }] : [];
  return withSpan("webhook delivery applied", attributes, apply, { parent, links });
}
