import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFiles } from '../testing/file-server.ts';
import { zipArchive } from '../testing/zip-archive.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { runCli } from '../testing/run-cli.ts';
import { ingestFile } from './ingest-file.ts';
import { loadStates } from './reference-loader.ts';
import { readWholeBefore, sourcesInUse } from './refresh.ts';
import { ingestSources, refreshSourcesInUse } from './sources.ts';

const CMS_V3_JSON = 'cms-hpt-examples/v3_json_format_example.json';

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'ratelens-refresh-'));
  await loadStates(database.connection.pool);
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

/** `npm run ingest -- …args` against the test database. */
const cli = (args: string[]) =>
  runCli('packages/ingest/src/cli/ingest.ts', args, { DATABASE_URL: database.url });
const figures = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
/** The CMS example (at `example`) as another hospital's file, of the given date. */
async function hospitalFile(
  example: string,
  name: string,
  licence: string,
  lastUpdatedOn = '2026-04-01',
  /** Its locations' names; the example's when not given. */
  locations?: string[],
): Promise<Buffer> {
  const json = JSON.parse(await readFile(example, 'utf8')) as Record<string, unknown>;
  json.hospital_name = name;
  json.license_information = { license_number: licence, state: 'CA' };
  json.last_updated_on = lastUpdatedOn;
  if (locations) json.location_name = locations;
  return Buffer.from(JSON.stringify(json));
}
const runs = async (source: string) =>
  (
    await database.connection.pool.query<{ status: string; listed_in: string | null }>(
      `SELECT status, listed_in FROM mrf_files WHERE source = $1 ORDER BY started_at`,
      [source],
    )
  ).rows;

describe('npm run ingest -- --refresh', () => {
  itWithDataFile(
    "reads again where each hospital's file in use came from, and loads what changed",
    CMS_V3_JSON,
    async (example) => {
      const hospital = (name: string, licence: string, lastUpdatedOn?: string) =>
        hospitalFile(example, name, licence, lastUpdatedOn);
      const list = (file: string) =>
        Buffer.from(
          `location-name: Listed Hospital\nsource-page-url: https://example.org/prices\nmrf-url: ${file}\n`,
        );
      const served: Record<string, Buffer> = {
        '/cms-hpt.txt': list('/2026-03/listed.json'),
        '/2026-03/listed.json': await hospital('Listed Hospital', '880001'),
        '/direct.json': await hospital('Direct Hospital', '880002'),
      };
      const server = await serveFiles(served, { validators: true });
      const local = path.join(dir, 'local.json');
      const gone = path.join(dir, 'gone.json');
      const demo = path.join(dir, 'demo.json');
      await writeFile(local, await hospital('Local Hospital', '880003'));
      await writeFile(gone, await hospital('Gone Hospital', '880004'));
      await writeFile(demo, await hospital('Demo Refresh Hospital', '880005'));
      try {
        const listUrl = server.url('/cms-hpt.txt');
        const directUrl = server.url('/direct.json');
        // The hospital's website by its address alone stands for the cms-hpt.txt at its root.
        const site = server.url('/');
        const first = await cli([site, directUrl, local, gone]);
        expect(first.code).toBe(0);
        expect(first.stderr).toContain(`${site}: a website; reading its cms-hpt.txt, ${listUrl}`);
        expect(figures(first.stdout).map((line) => line.status)).toEqual([
          'loaded',
          'loaded',
          'loaded',
          'loaded',
        ]);
        expect((await ingestFile(database.connection, demo, { demo: true })).status).toBe('loaded');
        expect(await runs(server.url('/2026-03/listed.json'))).toEqual([
          { status: 'loaded', listed_in: listUrl },
        ]);
        // The list for the file found through it; the demo hospital's file left out. The hospital
        // read longest ago first: here, in the order they were loaded.
        expect(await sourcesInUse(database.connection.pool)).toEqual([
          listUrl,
          directUrl,
          local,
          gone,
        ]);

        // The hospital publishes a newer file under a new name; a local file is taken away.
        served['/cms-hpt.txt'] = list('/2026-04/listed.json');
        served['/2026-04/listed.json'] = await hospital('Listed Hospital', '880001', '2026-05-01');
        await rm(gone);
        const askedBefore = server.statuses.length;
        const refresh = await cli(['--refresh']);
        expect(refresh.code).toBe(0);
        expect(refresh.stderr).toContain(
          `${gone}: no longer there, so not read again; its hospital's rates stay.`,
        );
        expect(refresh.stderr).toContain('Reading again 3 sources of the files in use.');
        // Each file after where the run is; the sources in the order they were last read.
        for (const n of [1, 2, 3]) expect(refresh.stderr).toContain(`File ${n} of 3: `);
        expect(refresh.stderr).toContain(` of 3: ${local}\n`);
        const lines = figures(refresh.stdout);
        expect(lines).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ hospital: 'Listed Hospital', status: 'loaded' }),
            expect.objectContaining({ hospital: 'Direct Hospital', status: 'unchanged' }),
            expect.objectContaining({ hospital: 'Local Hospital', status: 'unchanged' }),
          ]),
        );
        expect(lines).toHaveLength(3);
        expect(refresh.stderr.trim().split('\n').at(-1)).toBe(
          'Read again: 3 files (1 loaded, 2 unchanged); 1 local file no longer there.',
        );
        // The URL given directly was asked for only if it changed; it had not.
        expect(server.statuses.slice(askedBefore)).toContain(304);
        // The newer file replaced the older one, and is reached through the list next time.
        expect(await runs(server.url('/2026-03/listed.json'))).toEqual([
          { status: 'replaced', listed_in: listUrl },
        ]);
        expect(await runs(server.url('/2026-04/listed.json'))).toEqual([
          { status: 'loaded', listed_in: listUrl },
        ]);
        expect(await runs(directUrl)).toEqual([
          { status: 'loaded', listed_in: null },
          { status: 'unchanged', listed_in: null },
        ]);
        // The file no longer there was not read: its hospital, read longest ago, is now first.
        expect(await sourcesInUse(database.connection.pool)).toEqual([
          gone,
          listUrl,
          directUrl,
          local,
        ]);
        // The rates of the hospital whose file was taken away are still there.
        const { rows } = await database.connection.pool.query<{ status: string }>(
          `SELECT f.status FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
            WHERE h.name = 'Gone Hospital'`,
        );
        expect(rows).toEqual([{ status: 'loaded' }]);

        // The hospital takes its list down: the refresh fails for it, and its page can say so.
        delete served['/cms-hpt.txt'];
        const broken = await cli(['--refresh']);
        expect(broken.code).toBe(1);
        expect(broken.stderr).toContain(
          `${listUrl}: expected an HTTP 200 response; found HTTP 404`,
        );
        expect(broken.stderr.trim().split('\n').at(-1)).toBe(
          'Read again: 2 files (2 unchanged); 1 source could not be read; 1 local file no longer there.',
        );
        const failed = await database.connection.pool.query<Record<string, unknown>>(
          `SELECT h.name, f.status, f.listed_in, f.error FROM mrf_files f JOIN hospitals h ON h.id = f.hospital_id
            WHERE f.source = $1`,
          [listUrl],
        );
        expect(failed.rows).toEqual([
          {
            name: 'Listed Hospital',
            status: 'failed',
            listed_in: listUrl,
            error:
              'The hospital’s list of its price files could not be read: expected an HTTP 200 ' +
              'response; found HTTP 404',
          },
        ]);
        // Its rates stay, and the list is still where the next refresh looks.
        expect(await runs(server.url('/2026-04/listed.json'))).toEqual([
          { status: 'loaded', listed_in: listUrl },
        ]);
        expect(await sourcesInUse(database.connection.pool)).toContain(listUrl);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  itWithDataFile(
    'does not read again a listed file read before and not put in use, while it is unchanged',
    CMS_V3_JSON,
    async (example) => {
      // One hospital's list names its file twice (JSON, and a copy elsewhere of the same date)
      // and last year's file too.
      const file = (lastUpdatedOn: string) =>
        hospitalFile(example, 'Two Files Hospital', '880201', lastUpdatedOn);
      const entry = (url: string) =>
        `location-name: Two Files Hospital\nsource-page-url: https://example.org/p\nmrf-url: ${url}\n`;
      const served: Record<string, Buffer> = {
        '/cms-hpt.txt': Buffer.from(['/a.json', '/b.json', '/old.json'].map(entry).join('\n')),
        '/a.json': await file('2026-04-01'),
        // Not the same bytes: a copy saved with a line end.
        '/b.json': Buffer.concat([await file('2026-04-01'), Buffer.from('\n')]),
        '/old.json': await file('2025-04-01'),
      };
      const server = await serveFiles(served, { validators: true });
      // A database of its own: the refresh reads again every file in use.
      const own = await createTestDatabase();
      await loadStates(own.connection.pool);
      const cli = (args: string[]) =>
        runCli('packages/ingest/src/cli/ingest.ts', args, { DATABASE_URL: own.url });
      const runs = async (source: string) =>
        (
          await own.connection.pool.query<{ status: string }>(
            `SELECT status FROM mrf_files WHERE source = $1 ORDER BY started_at`,
            [source],
          )
        ).rows.map((run) => run.status);
      try {
        const [a, b, old] = [server.url('/a.json'), server.url('/b.json'), server.url('/old.json')];
        const status = (stdout: string) => figures(stdout).map((line) => line.status);
        const first = await cli([server.url('/cms-hpt.txt')]);
        // The second file of the same date replaces the first (ADR 0011); last year's is older.
        expect(status(first.stdout)).toEqual(['loaded', 'loaded', 'older']);

        const asked = server.statuses.length;
        const refresh = await cli(['--refresh']);
        expect(refresh.code).toBe(0);
        // Each asked only whether it changed: none was downloaded or read again.
        expect(server.statuses.slice(asked)).toEqual([200, 304, 304, 304]);
        expect(status(refresh.stdout)).toEqual(['skipped', 'unchanged', 'skipped']);
        expect(refresh.stderr).toContain(
          `${a}: its server says the file has not changed since it was read and not put in use ` +
            `(the hospital's rates come from ${b}, last updated 2026-04-01), so it was not downloaded`,
        );
        expect(refresh.stderr.trim().split('\n').at(-1)).toBe(
          'Read again: 3 files (1 unchanged, 2 skipped).',
        );
        expect(await runs(a)).toEqual(['replaced', 'skipped']);
        expect(await runs(old)).toEqual(['older', 'skipped']);

        // The first file changes: it is read and put in use, and the other is passed over next.
        served['/a.json'] = await file('2026-05-01');
        const changed = await cli(['--refresh']);
        expect(status(changed.stdout)).toEqual(['loaded', 'skipped', 'skipped']);
        expect(await runs(b)).toEqual(['replaced', 'unchanged', 'skipped']);
        // A URL read before and not in use is not asked first whether it is an archive.
        expect(await readWholeBefore(own.connection.pool, old)).toBe(true);
        // --reload reads every file again.
        const reload = await cli(['--refresh', '--reload']);
        expect(status(reload.stdout)).toEqual(['loaded', 'older', 'older']);

        // A local file read before and not in use is known by its hash the same way.
        const [one, two] = [path.join(dir, 'one.json'), path.join(dir, 'two.json')];
        const local = await hospitalFile(example, 'Two Local Files', '880202');
        await writeFile(one, local);
        await writeFile(two, Buffer.concat([local, Buffer.from('\n')]));
        const ingest = (file: string) => ingestFile(own.connection, file);
        expect((await ingest(one)).status).toBe('loaded');
        expect((await ingest(two)).status).toBe('loaded');
        expect(await ingest(one)).toMatchObject({
          status: 'skipped',
          unchangedBy: 'hash',
          previous: { source: two },
        });
      } finally {
        await server.close();
        await own.drop();
      }
    },
    60_000,
  );

  itWithDataFile(
    "of one hospital, reads of its list the files of that hospital's locations only",
    CMS_V3_JSON,
    async (example) => {
      // A health system lists its three hospitals in one cms-hpt.txt.
      const file = (name: string, licence: string, date: string) =>
        hospitalFile(example, name, licence, date, [name]);
      const list = (entries: [string, string][]) =>
        Buffer.from(
          entries
            .map(([location, url]) => `location-name: ${location}\nmrf-url: ${url}\n`)
            .join('\n'),
        );
      const served: Record<string, Buffer> = {
        '/cms-hpt.txt': list([
          // Its name as the list writes it, in capitals and with two spaces.
          ['ALPHA  Hospital', '/alpha-2026-04.json'],
          ['Beta Hospital', '/beta.json'],
          ['Gamma Hospital', '/gamma.json'],
        ]),
        '/alpha-2026-04.json': await file('Alpha Hospital', '880301', '2026-04-01'),
        '/beta.json': await file('Beta Hospital', '880302', '2026-04-01'),
        '/gamma.json': await file('Gamma Hospital', '880303', '2026-04-01'),
      };
      const server = await serveFiles(served);
      try {
        const lines: string[] = [];
        const say = (line: string) => lines.push(line);
        const listUrl = server.url('/cms-hpt.txt');
        const { statuses } = await ingestSources(database.connection, [listUrl], { say });
        expect(statuses).toEqual(['loaded', 'loaded', 'loaded']);
        const { rows } = await database.connection.pool.query<{ hospital_id: string }>(
          `SELECT hospital_id FROM mrf_files WHERE source = $1`,
          [server.url('/alpha-2026-04.json')],
        );
        const alpha = rows[0]?.hospital_id ?? '';

        // Alpha publishes a newer file under a new name, and Beta a newer one at its place.
        served['/cms-hpt.txt'] = list([
          ['Alpha Hospital', '/alpha-2026-05.json'],
          ['Beta Hospital', '/beta.json'],
          ['Gamma Hospital', '/gamma.json'],
        ]);
        served['/alpha-2026-05.json'] = await file('Alpha Hospital', '880301', '2026-05-01');
        served['/beta.json'] = await file('Beta Hospital', '880302', '2026-05-01');
        lines.length = 0;
        const alphaOnly = await refreshSourcesInUse(database.connection, {
          hospitalId: alpha,
          say,
        });
        expect(alphaOnly.statuses).toEqual(['loaded']);
        expect(lines).toContain(
          `${listUrl}: 1 location of the hospital's, of 3; the others are left alone`,
        );
        expect((await runs(server.url('/beta.json'))).map((run) => run.status)).toEqual(['loaded']);

        // Then under a new name of its location too: nothing tells its entry, so all are read.
        served['/cms-hpt.txt'] = list([
          ['Alpha Medical Center', '/alpha-2026-06.json'],
          ['Beta Hospital', '/beta.json'],
          ['Gamma Hospital', '/gamma.json'],
        ]);
        served['/alpha-2026-06.json'] = await file('Alpha Hospital', '880301', '2026-06-01');
        lines.length = 0;
        const every = await refreshSourcesInUse(database.connection, { hospitalId: alpha, say });
        expect(every.statuses).toEqual(['loaded', 'loaded', 'unchanged']);
        expect(lines).toContain(
          `${listUrl}: no location in it has the hospital's name or a file it was read from, so every file it lists is read`,
        );
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  itWithDataFile(
    'does not put in use again, once read, a file not put in use from a server without validators',
    CMS_V3_JSON,
    async (example) => {
      const file = await hospitalFile(example, 'No Validators Hospital', '880203');
      const server = await serveFiles({
        '/a.json': file,
        '/b.json': Buffer.concat([file, Buffer.from('\n')]),
      });
      try {
        const ingest = (name: string) => ingestFile(database.connection, server.url(name));
        expect((await ingest('/a.json')).status).toBe('loaded');
        expect((await ingest('/b.json')).status).toBe('loaded');
        // Downloaded again (nothing to ask its server with), known by its hash, not swapped in.
        expect(await ingest('/a.json')).toMatchObject({
          status: 'skipped',
          unchangedBy: 'hash',
          previous: { source: server.url('/b.json') },
        });
        expect(await ingest('/b.json')).toMatchObject({ status: 'unchanged', unchangedBy: 'hash' });
        expect(server.statuses).toEqual([200, 200, 200, 200]);
        expect((await runs(server.url('/a.json'))).map((run) => run.status)).toEqual([
          'replaced',
          'skipped',
        ]);
        expect(
          (await ingestFile(database.connection, server.url('/a.json'), { reload: true })).status,
        ).toBe('loaded');
      } finally {
        await server.close();
      }
    },
  );

  itWithDataFile(
    'does not put in use again a file of a zip archive not put in use, known by its entry or at the swap',
    CMS_V3_JSON,
    async (example) => {
      const file = await hospitalFile(example, 'Archive Twins Hospital', '880204');
      // A file in a remote archive is read by ranges. Without validators, it is known by the
      // archive's entry for it (its CRC-32 and size), or, for a run that kept none, once read.
      const server = await serveFiles({
        '/two.zip': zipArchive([
          { name: 'a.json', content: file },
          { name: 'b.json', content: Buffer.concat([file, Buffer.from('\n')]) },
        ]),
      });
      try {
        const member = (name: string) => `${server.url('/two.zip')}#${name}`;
        const ingest = (name: string) => ingestFile(database.connection, member(name));
        expect((await ingest('a.json')).status).toBe('loaded');
        expect((await ingest('b.json')).status).toBe('loaded');
        const again = await ingest('a.json');
        expect(again).toMatchObject({
          status: 'skipped',
          unchangedBy: 'entry',
          previous: { source: member('b.json') },
        });
        await database.connection.pool.query(
          `UPDATE mrf_files SET zip_crc32 = NULL WHERE source = $1`,
          [member('a.json')],
        );
        const read = await ingest('a.json');
        expect(read).toMatchObject({ status: 'skipped', previous: { source: member('b.json') } });
        expect(read.unchangedBy).toBeUndefined();
        expect((await runs(member('b.json'))).map((run) => run.status)).toEqual(['loaded']);
      } finally {
        await server.close();
      }
    },
  );

  it('takes no file, nor --validate-only or --demo, and says so', async () => {
    for (const args of [
      ['--refresh', 'a.json'],
      ['--refresh', '--validate-only'],
      ['--refresh', '--demo'],
    ]) {
      const run = await cli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        '--refresh reads again the files already loaded: give it no file, nor --validate-only or --demo.',
      );
    }
  }, 30_000);
});

describe('readWholeBefore', () => {
  itWithDataFile(
    'spares a URL read whole before the Range request that asks whether it is an archive',
    CMS_V3_JSON,
    async (example) => {
      const hospital = (name: string, licence: string) => hospitalFile(example, name, licence);
      const server = await serveFiles(
        {
          '/whole.json': await hospital('Whole File Hospital', '880101'),
          '/two.zip': zipArchive([
            { name: 'north.json', content: await hospital('North Archive Hospital', '880102') },
            { name: 'south.json', content: await hospital('South Archive Hospital', '880103') },
          ]),
        },
        { validators: true },
      );
      try {
        const url = server.url('/whole.json');
        const pool = database.connection.pool;
        expect(await readWholeBefore(pool, url)).toBe(false);
        const first = await cli([url]);
        expect(first.code).toBe(0);
        // Asked first whether it is an archive (a Range request for its end), then downloaded.
        expect(server.ranges.filter((range) => range !== '')).toHaveLength(1);
        expect(await readWholeBefore(pool, url)).toBe(true);
        const asked = server.ranges.length;
        const again = await cli([url]);
        expect(figures(again.stdout)).toEqual([
          expect.objectContaining({ hospital: 'Whole File Hospital', status: 'unchanged' }),
        ]);
        // One request: the conditional GET, answered 304.
        expect(server.ranges.slice(asked)).toEqual(['']);
        expect(server.statuses.slice(asked)).toEqual([304]);

        // An archive of two files read whole (its first file, the other named in the report) is
        // asked again next time, so that each of its files is read.
        const zipUrl = server.url('/two.zip');
        expect((await ingestFile(database.connection, zipUrl)).status).toBe('loaded');
        expect(await readWholeBefore(pool, zipUrl)).toBe(false);
        const split = await cli([zipUrl]);
        expect(split.stderr).toContain(`${zipUrl}: a zip archive of 2 files, read one by one`);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  itWithDataFile(
    'spares it too a URL read whole from a server that sends no validators',
    CMS_V3_JSON,
    async (example) => {
      const server = await serveFiles({
        '/plain.json': await hospitalFile(example, 'Plain Server Hospital', '880104'),
      });
      try {
        const url = server.url('/plain.json');
        expect((await cli([url])).code).toBe(0);
        expect(await readWholeBefore(database.connection.pool, url)).toBe(true);
        const asked = server.ranges.length;
        const again = await cli([url]);
        expect(figures(again.stdout)).toEqual([
          expect.objectContaining({ hospital: 'Plain Server Hospital', status: 'unchanged' }),
        ]);
        // One request: the download, hashed and not read.
        expect(server.ranges.slice(asked)).toEqual(['']);
        expect(server.statuses.slice(asked)).toEqual([200]);
      } finally {
        await server.close();
      }
    },
    60_000,
  );
});

describe('sourcesInUse', () => {
  it('is empty before any file is loaded, and the command says there is nothing to read', async () => {
    const empty = await createTestDatabase();
    try {
      expect(await sourcesInUse(empty.connection.pool)).toEqual([]);
      const run = await runCli('packages/ingest/src/cli/ingest.ts', ['--refresh'], {
        DATABASE_URL: empty.url,
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        'No file is in use yet, so there is nothing to read again (demo hospitals are left out).',
      );
      expect(run.stderr).toContain('Read again: 0 files.');
    } finally {
      await empty.drop();
    }
  }, 30_000);
});
