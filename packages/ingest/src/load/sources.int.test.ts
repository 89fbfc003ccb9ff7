import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@ratelens/db';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { loadStates } from './reference-loader.ts';
import { ingestSources } from './sources.ts';

const CMS_V3_JSON = 'cms-hpt-examples/v3_json_format_example.json';

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'ratelens-sources-'));
  await loadStates(database.connection.pool);
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

/** The CMS example (at `example`) as another hospital's file, written at `file`. */
async function hospitalFile(example: string, file: string, name: string, licence: string) {
  const json = JSON.parse(await readFile(example, 'utf8')) as Record<string, unknown>;
  json.hospital_name = name;
  json.license_information = { license_number: licence, state: 'CA' };
  await writeFile(file, JSON.stringify(json));
  return file;
}

/** A port on this machine that nothing listens on (one just let go of). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('ingestSources', () => {
  itWithDataFile(
    'goes on to the next file when the database fails one in a way its run cannot record',
    CMS_V3_JSON,
    async (example) => {
      const first = await hospitalFile(example, path.join(dir, 'first.json'), 'Sources A', 'S-1');
      const second = await hospitalFile(example, path.join(dir, 'second.json'), 'Sources B', 'S-2');
      // A connection of the test's own, whose new connections go where no database listens while
      // the first file is read (a run opens a pool of its own, on the pool's settings, as it
      // starts): the run can neither be read nor recorded failed, and ingestFile throws.
      const connection = connect(database.url, { applicationName: 'ratelens-sources-test' });
      const options = connection.pool.options as { connectionString: string };
      const reachable = options.connectionString;
      const unreachable = new URL(reachable);
      unreachable.port = String(await closedPort());
      const lines: string[] = [];
      const unrecorded: string[] = [];
      try {
        const { statuses } = await ingestSources(connection, [first, second], {
          say: (line) => lines.push(line),
          starting: (file, index) => {
            options.connectionString = index === 0 ? unreachable.toString() : reachable;
            // The command line's JSON line of the file.
            return { unrecorded: (error) => unrecorded.push(`${file.source}: ${error}`) };
          },
        });
        expect(statuses).toEqual(['failed', 'loaded']);
      } finally {
        options.connectionString = reachable;
        await connection.close();
      }
      expect(lines).toContainEqual(
        expect.stringMatching(/first\.json: failed, and could not be recorded: .*ECONNREFUSED/),
      );
      expect(unrecorded).toEqual([expect.stringMatching(/first\.json: .*ECONNREFUSED/)]);
      const { rows } = await database.connection.pool.query<{ status: string }>(
        'SELECT status FROM mrf_files WHERE source = $1',
        [second],
      );
      expect(rows).toEqual([{ status: 'loaded' }]);
    },
    60_000,
  );

  itWithDataFile(
    'reads the files read longest ago first when asked to (a refresh), never read first of all',
    CMS_V3_JSON,
    async (example) => {
      const [a, b, c] = await Promise.all(
        ['a', 'b', 'c'].map((n) =>
          hospitalFile(example, path.join(dir, `order-${n}.json`), `Order ${n}`, `O-${n}`),
        ),
      );
      const order = async (files: string[], oldestFirst?: boolean) => {
        const started: string[] = [];
        await ingestSources(database.connection, files, {
          say: () => undefined,
          oldestFirst,
          starting: (file) => {
            started.push(path.basename(file.source));
            return {};
          },
        });
        return started;
      };
      // b, then a, are read; c never is.
      expect(await order([b as string, a as string])).toEqual(['order-b.json', 'order-a.json']);
      // As a list names them, a refresh would start with a every time and might not reach c.
      expect(await order([a as string, b as string, c as string], true)).toEqual([
        'order-c.json',
        'order-b.json',
        'order-a.json',
      ]);
      expect(await order([a as string, b as string, c as string])).toEqual([
        'order-a.json',
        'order-b.json',
        'order-c.json',
      ]);
    },
    60_000,
  );

  it('says how many files it left unread when it was told to stop', async () => {
    const lines: string[] = [];
    const { statuses, notRead } = await ingestSources(
      database.connection,
      [path.join(dir, 'first.json'), path.join(dir, 'second.json')],
      { say: (line) => lines.push(line), signal: AbortSignal.abort(new Error('stopping')) },
    );
    expect(statuses).toEqual([]);
    // Counted, for the worker's job output (an administrator's page tells a refresh stopped so
    // before its first file from one that completed).
    expect(notRead).toBe(2);
    expect(lines).toContain(
      'Cut short (stopping): 2 files of 2 not read; they are read next time.',
    );
  });
});
