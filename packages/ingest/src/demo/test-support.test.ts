import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCsv, sharedDataFile } from './test-support.ts';

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratelens-shared-'));
  await writeFile(join(dir, 'present.csv'), 'a,b\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sharedDataFile', () => {
  it('returns the path of a file that exists', () => {
    expect(sharedDataFile('present.csv', {}, dir)).toBe(join(dir, 'present.csv'));
  });

  it('fails in CI when the file is missing', () => {
    expect(() => sharedDataFile('absent.csv', { CI: 'true' }, dir)).toThrow(/absent\.csv/);
  });

  it('returns null and prints a notice naming the file outside CI', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(sharedDataFile('absent.csv', {}, dir)).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(join(dir, 'absent.csv')));
    warn.mockRestore();
  });
});

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('a,"b, c","say ""hi""","two\nlines"\nx,,z\n')).toEqual([
      ['a', 'b, c', 'say "hi"', 'two\nlines'],
      ['x', '', 'z'],
    ]);
  });
});
