import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFiles } from '../testing/file-server.ts';
import { runCli } from '../testing/run-cli.ts';
import { sharedDataPath } from '../testing/shared-data.ts';

const CMS_V3_JSON = 'cms-hpt-examples/v3_json_format_example.json';

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'ratelens-ingest-cli-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) =>
  runCli('packages/ingest/src/cli/ingest.ts', args, { DATABASE_URL: database.url });
const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('npm run ingest: the last line of each file', () => {
  it('names its file, and says why when the file failed', async () => {
    const empty = path.join(dir, 'empty.json');
    await writeFile(empty, '');
    const good = sharedDataPath(CMS_V3_JSON);
    for (const args of [
      [empty, good],
      ['--validate-only', empty, good],
    ]) {
      const run = await cli(args);
      expect(run.code, run.stderr).toBe(1);
      const [failed, read] = jsonLines(run.stdout);
      expect(failed).toMatchObject({ source: empty, status: 'failed' });
      expect(failed?.error).toMatch(/empty|0 bytes/i);
      expect(read).toMatchObject({ source: good });
      expect(read?.status).not.toBe('failed');
      expect(read).not.toHaveProperty('error');
    }
  }, 60_000);
});

describe('npm run ingest: a list that cannot be read', () => {
  it('has its JSON line too, naming it and why, when loading or checking', async () => {
    const server = await serveFiles({});
    try {
      const list = server.url('/cms-hpt.txt');
      for (const args of [[list], ['--validate-only', list]]) {
        const run = await cli(args);
        expect(run.code, run.stderr).toBe(1);
        const [line, ...more] = jsonLines(run.stdout);
        expect(more).toEqual([]);
        expect(line).toMatchObject({ source: list, status: 'failed' });
        expect(line?.error).toMatch(/404/);
      }
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('npm run ingest: options', () => {
  it('refuses --reload or --demo with --validate-only, which loads nothing', async () => {
    for (const option of ['--reload', '--demo']) {
      const run = await cli(['--validate-only', option, 'x.json']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        '--validate-only loads nothing: --reload and --demo, which say how to load, do not go with it.',
      );
    }
  }, 30_000);

  it('prints its usage for -h as for --help', async () => {
    const run = await cli(['-h']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Usage: npm run ingest');
  }, 30_000);
});
