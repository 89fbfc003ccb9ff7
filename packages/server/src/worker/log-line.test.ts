import { describe, expect, it } from 'vitest';
import { logLine } from './log-line.ts';

describe('logLine', () => {
  it('leaves an ordinary message, tabs and all, as it is', () => {
    expect(logLine('Refresh: St. Mary’s\tloaded 1,024 rates')).toBe(
      'Refresh: St. Mary’s\tloaded 1,024 rates',
    );
  });

  it('writes line breaks and escape sequences as escapes, so one message is one line', () => {
    const forged = 'X\n2026-05-01T03:00:00.000Z Refresh: all files loaded\r\u001b[2K\u0085\u2028';
    const line = logLine(forged);
    expect(line).toBe(
      'X\\n2026-05-01T03:00:00.000Z Refresh: all files loaded\\r\\u001b[2K\\u0085\\u2028',
    );
    expect(line.split(/\r\n|[\n\r\u0085\u2028\u2029]/)).toHaveLength(1);
  });
});
