// The first installment takes the leftover cents: 100.00 / 3 → 33.34, 33.33, 33.33.
export function splitCents(totalCents: number, count: number): number[] {
  if (!Number.isInteger(totalCents) || totalCents < 0)
    throw new RangeError("totalCents must be a non-negative integer");
  if (!Number.isInteger(count) || count < 1) throw new RangeError("count must be a positive integer");
  const base = Math.floor(totalCents / count);
  const remainder = totalCents - base * count;
  return Array.from({ length: count }, (_, index) => (index === 0 ? base + remainder : base));
}
