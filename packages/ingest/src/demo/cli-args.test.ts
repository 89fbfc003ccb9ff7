import { describe, expect, it } from 'vitest';
import { parseBytes, parseCliArgs } from './cli-args.ts';

describe('parseBytes', () => {
  it('reads binary units with or without a B', () => {
    expect(parseBytes('1G')).toBe(1024 ** 3);
    expect(parseBytes('500M')).toBe(500 * 1024 ** 2);
    expect(parseBytes('5MB')).toBe(5 * 1024 ** 2);
    expect(parseBytes('4096')).toBe(4096);
  });

  it('rejects text that is not a size', () => {
    expect(() => parseBytes('lots')).toThrow(/Not a size/);
  });
});

describe('parseCliArgs', () => {
  it('reads a demo command with defaults for seed and scale', () => {
    expect(parseCliArgs(['--out', '/tmp/demo'])).toEqual({
      kind: 'demo',
      outDir: '/tmp/demo',
      seed: 1,
      scale: 1,
    });
  });

  it('reads a large-file command', () => {
    expect(
      parseCliArgs(['--large', '/tmp/x.csv', '--bytes', '1G', '--format', 'csv-tall']),
    ).toEqual({
      kind: 'large',
      path: '/tmp/x.csv',
      targetBytes: 1024 ** 3,
      format: 'csv-tall',
      seed: 1,
    });
  });

  it('accepts only json or csv-tall as the format of a large file', () => {
    expect(() => parseCliArgs(['--large', 'x', '--bytes', '1M', '--format', 'csv-wide'])).toThrow(
      /--format/,
    );
  });

  it('refuses a scale of zero', () => {
    expect(() => parseCliArgs(['--out', 'x', '--scale', '0'])).toThrow(/--scale/);
  });
});
