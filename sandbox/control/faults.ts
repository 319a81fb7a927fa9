import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { now } from "../clock";
import { httpError } from "../http/errors";

export const ZFaults = z.strictObject({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  failureStatus: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
  failureRate: z.number().min(0).max(1).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  pathPrefix: z
    .string()
    .max(300)
    .regex(/^\/api\/v1\//, "deve começar com /api/v1/")
    .optional(),
});

type TFaults = {
  latencyMs: number;
  failureStatus: number | null;
  failureRate: number;
  untilMs: number | null;
  pathPrefix: string;
};

// In memory and per client certificate: a restart or DELETE clears them, and one client's faults never touch another.
const faultsByClient = new Map<string, TFaults>();

export function setFaults(clientId: string, input: z.infer<typeof ZFaults>): TFaults {
  const faults: TFaults = {
    latencyMs: input.latencyMs ?? 0,
    failureStatus: input.failureStatus ?? null,
    failureRate: input.failureStatus === undefined ? 0 : (input.failureRate ?? 1),
    untilMs: input.until === undefined ? null : Date.parse(input.until),
    pathPrefix: input.pathPrefix ?? "/api/v1/",
  };
  faultsByClient.set(clientId, faults);
  return faults;
}

export function clearFaults(clientId: string): void {
  faultsByClient.delete(clientId);
}

export function faultsOf(clientId: string): TFaults | null {
  const faults = faultsByClient.get(clientId);
  if (faults?.untilMs != null && faults.untilMs <= now()) {
    faultsByClient.delete(clientId);
    return null;
  }
  return faults ?? null;
}

export function toApiFaults(faults: TFaults | null) {
  return {
    latencyMs: faults?.latencyMs ?? 0,
    failureStatus: faults?.failureStatus ?? null,
    failureRate: faults?.failureRate ?? 0,
    until: faults?.untilMs == null ? null : new Date(faults.untilMs).toISOString(),
    pathPrefix: faults?.pathPrefix ?? null,
  };
}

/** Delays and maybe fails a gateway API request (`/api/v1` only; the control API stays healthy). */
export async function applyFaults(clientId: string, path: string): Promise<void> {
  if (!path.startsWith("/api/v1/")) return;
  const faults = faultsOf(clientId);
  if (!faults || !path.startsWith(faults.pathPrefix)) return;
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (faults.failureStatus !== null && Math.random() < faults.failureRate) {
    throw httpError(faults.failureStatus, "Falha simulada do gateway (sandbox)");
  }
}
