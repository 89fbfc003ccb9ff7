import { afterAll, beforeAll } from 'vitest';

/**
 * Runs the enclosing tests in `zone` (the tests otherwise run in UTC, where a time or date read in
 * the wrong zone looks right): west of UTC, an hour written in UTC, or '2026-03-27' read as an
 * instant, shows wrong.
 */
export function inTimeZone(zone: string): void {
  const before = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}
