/**
 * Rounds a dollar amount to cents, half away from zero. The small epsilon absorbs binary
 * floating-point error (1.005 is stored as 1.00499…), which would otherwise round a computed
 * half-cent down.
 */
export function roundToCents(amount: number): number {
  const cents = Math.abs(amount) * 100;
  const rounded = Math.round(cents + cents * Number.EPSILON * 8) / 100;
  return Math.sign(amount) * rounded;
}
