// The card API's DD/MM/YYYY'T'HH:mm is Brasília time (UTC-3, no DST since 2019); token dates are ISO 8601.

const brasiliaOffsetMs = 3 * 60 * 60 * 1000;
const cardAreaPattern = /^(\d{2})\/(\d{2})\/(\d{4})T(\d{2}):(\d{2})$/;

export function parseGatewayDateTime(value: string | null | undefined): Date | null {
  if (!value) return null;
  const match = cardAreaPattern.exec(value.trim());
  if (match) {
    const [day, month, year, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
    const local = new Date(Date.UTC(year, month - 1, day, hour, minute));
    // Date rolls 31/02 over to March: the fields read back must be the fields written.
    const isReal =
      local.getUTCFullYear() === year &&
      local.getUTCMonth() === month - 1 &&
      local.getUTCDate() === day &&
      hour < 24 &&
      minute < 60;
    return isReal ? new Date(local.getTime() + brasiliaOffsetMs) : null;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value);
  const date = new Date(hasZone || !value.includes("T") ? value : `${value}-03:00`);
  return Number.isNaN(date.getTime()) ? null : date;
}
