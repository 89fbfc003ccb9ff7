import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLargeFile } from './generate-demo.ts';
import { parseCsv } from './test-support.ts';

const TARGET = 5 * 1024 * 1024;
let root = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ratelens-demo-large-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('generateLargeFile', () => {
  it('writes a JSON file of at least the target size that still parses', async () => {
    const path = join(root, 'large.json');
    const result = await generateLargeFile({ path, format: 'json', targetBytes: TARGET, seed: 1 });
    const size = (await stat(path)).size;
    expect(size).toBeGreaterThanOrEqual(TARGET);
    expect(size).toBe(result.bytes);
    const parsed = JSON.parse(await readFile(path, 'utf8')) as {
      standard_charge_information: unknown[];
    };
    expect(parsed.standard_charge_information).toHaveLength(result.items);
  });

  it('stops soon after the target instead of running on', async () => {
    const path = join(root, 'bounded.json');
    const result = await generateLargeFile({ path, format: 'json', targetBytes: TARGET, seed: 1 });
    // One item is a few kilobytes at most.
    expect(result.bytes).toBeLessThan(TARGET + 64 * 1024);
  });

  it('writes a tall CSV file of at least the target size with whole rows', async () => {
    const path = join(root, 'large.csv');
    const result = await generateLargeFile({
      path,
      format: 'csv-tall',
      targetBytes: TARGET,
      seed: 1,
    });
    const text = await readFile(path, 'utf8');
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(TARGET);
    const rows = parseCsv(text);
    const width = rows[2]?.length ?? 0;
    expect(rows.every((row) => row.length === width)).toBe(true);
    // Three header rows, one row per rate, then the modifier rows.
    expect(rows.length).toBeGreaterThan(result.rates + 3);
  });

  it('writes a wide CSV with a column group for each of as many plans as asked', async () => {
    const path = join(root, 'wide.csv');
    const result = await generateLargeFile({
      path,
      format: 'csv-wide',
      targetBytes: 1024 * 1024,
      seed: 1,
      plans: 40,
    });
    const rows = parseCsv(await readFile(path, 'utf8'));
    const header = rows[2] ?? [];
    const pairs = new Set(
      header
        .filter((name) => name.endsWith('|methodology'))
        .map((name) => name.split('|').slice(1, 3).join('|')),
    );
    expect(pairs.size).toBe(40);
    expect(pairs).toContain('Premera Blue Cross Blue Shield of Alaska|PPO 2');
    expect(rows.every((row) => row.length === header.length)).toBe(true);
    expect(result.bytes).toBeGreaterThanOrEqual(1024 * 1024);
  });
});
