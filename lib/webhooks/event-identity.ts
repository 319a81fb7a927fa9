import { z } from "zod";
import { ZDateTime } from "@/lib/gateway/schemas/common";
import type { TAnyEventKind, TResourceType } from "./event-kind";
import { findEventKind } from "./event-kinds";

// Effect key = event + resource id + reported state: retries, replays and a second webhook share it; a later state does not.

type TParsedEvent = { kind: TAnyEventKind; event: string; occurredAt: string; data: unknown };

export type TEventIdentity = { eventKey: string; resourceType: TResourceType; resourceId: string };

export type TParsedBody =
  | { isUsable: true; parsed: TParsedEvent; identity: TEventIdentity }
  | { isUsable: false; reason: string; event?: string };

const ZEnvelope = z.object({ event: z.string(), occurredAt: z.string(), data: z.unknown() });

function parseJson(rawBody: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(rawBody).toString("utf8"));
  } catch {
    return undefined;
  }
}

function eventIdentity({ kind, data }: Pick<TParsedEvent, "kind" | "data">): TEventIdentity {
  const { resourceId, state } = kind.identity(data);
  return { eventKey: `${kind.event}:${resourceId}:${state}`, resourceType: kind.change, resourceId };
}

// Not JSON, an unknown event or the wrong shape: not usable, with the reason.
export function parseDeliveryBody(rawBody: Uint8Array): TParsedBody {
  const envelope = ZEnvelope.safeParse(parseJson(rawBody));
  if (!envelope.success)
    return { isUsable: false, reason: "the body is not a JSON delivery ({ event, occurredAt, data })" };
  const { event, occurredAt } = envelope.data;
  const kind = findEventKind(event);
  if (!kind) return { isUsable: false, reason: `unknown event "${event.slice(0, 100)}"`, event };
  const data = kind.schema.safeParse(envelope.data.data);
  if (!data.success || !ZDateTime.safeParse(occurredAt).success)
    return { isUsable: false, reason: `the data does not have the shape of a ${event} event`, event };
  const parsed = { kind, event: kind.event, occurredAt, data: data.data };
  return { isUsable: true, parsed, identity: eventIdentity(parsed) };
}
