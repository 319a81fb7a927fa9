import { config } from "./config";

// Set at run time by the control API (POST /sandbox/v1/clock); null falls back to SANDBOX_CLOCK_OFFSET_MS.
let runtimeOffsetMs: number | null = null;

/** Sandbox time in epoch milliseconds; every state rule (expiry, 90-day window, retries) uses it. */
export function now(): number {
  return Date.now() + clockOffsetMs();
}

export function clockOffsetMs(): number {
  return runtimeOffsetMs ?? config().clockOffsetMs;
}

export function setClockOffset(offsetMs: number | null): void {
  runtimeOffsetMs = offsetMs;
}

// Pix-area date-times are written with the gateway's local offset (Brasília, UTC-3, no DST since 2019).
const brasiliaOffsetMs = -3 * 60 * 60 * 1000;

export function formatDateTime(ms: number): string {
  return new Date(ms + brasiliaOffsetMs).toISOString().replace("Z", "-03:00");
}

/** Parses an ISO 8601 date-time; one without a zone is read as Brasília time. NaN when invalid. */
export function parseDateTime(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value)) return Number.NaN;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.includes("T");
  const withTime = value.includes("T") ? value : `${value}T00:00:00`;
  return Date.parse(hasZone ? withTime : `${withTime}-03:00`);
}
