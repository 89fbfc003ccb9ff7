import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCbsaDelineation } from '../reference/cbsa.ts';
import { REFERENCE_MAX_BYTES } from '../reference/source.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { runCli } from '../testing/run-cli.ts';

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'ratelens-reference-cli-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

/** `npm run reference -- …args` against the test database. */
const reference = (args: string[]) =>
  runCli('packages/ingest/src/cli/reference.ts', args, { DATABASE_URL: database.url });

const summary = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, number | string>;

async function count(table: string): Promise<number> {
  const { rows } = await database.connection.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table}`,
  );
  return rows[0]?.n ?? -1;
}

/**
 * An RVU file and a GPCI file of one row each and a ZIP5 file, named as CMS names them, in a
 * folder of their own (a test below wants `dir` without fee schedule files).
 */
async function feeScheduleFiles(rvuRow: string, gpciRow: string, zip5Text: string) {
  const folder = await mkdtemp(path.join(dir, 'pfs-'));
  const files = {
    rvu: path.join(folder, 'PPRRVU.csv'),
    gpci: path.join(folder, 'GPCI.csv'),
    zip5: path.join(folder, 'ZIP5.txt'),
  };
  await writeFile(
    files.rvu,
    ',,,STATUS,WORK,NON-FAC,FACILITY,MP,GLOB,CONV\n' +
      `HCPCS,MOD,DESCRIPTION,CODE,RVU,PE RVU,PE RVU,RVU,DAYS,FACTOR\n${rvuRow}\n`,
  );
  await writeFile(
    files.gpci,
    'Medicare Administrative Contractor (MAC),State,Locality Number,Locality Name,2025 PW GPCI,2025 PE GPCI,2025 MP GPCI\n' +
      `${gpciRow}\n`,
  );
  await writeFile(files.zip5, zip5Text);
  return files;
}

describe('npm run reference', () => {
  it('loads the states and prints one JSON line of what it loaded', async () => {
    const run = await reference(['states']);
    expect(run.code).toBe(0);
    expect(summary(run.stdout)).toMatchObject({ kind: 'states', states: 52 });
    expect(await count('states')).toBe(52);
  }, 30_000);

  itWithDataFile(
    'loads the CBSA delineation: the figures it prints are the rows in the database',
    'census-cbsa/list1_2023_county_to_cbsa.csv',
    async (file) => {
      const run = await reference(['cbsa', file]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const parsed = await parseCbsaDelineation(file);
      expect(summary(run.stdout)).toMatchObject({
        kind: 'cbsa',
        cbsas: parsed.cbsas.length,
        counties: parsed.counties.length,
      });
      expect(await count(`cbsas WHERE kind <> 'nonmetro'`)).toBe(parsed.cbsas.length);
      expect(await count('counties')).toBe(parsed.counties.length);
    },
    60_000,
  );

  itWithDataFile(
    'loads the physician fee schedule from its folder',
    'cms-pfs-rvu-2025/PPRRVU2025_Oct.csv',
    async (file) => {
      const run = await reference(['pfs', path.dirname(file)]);
      expect(run.code).toBe(0);
      const figures = summary(run.stdout);
      expect(figures).toMatchObject({ kind: 'pfs' });
      expect(figures.rvus).toBeGreaterThan(10_000);
      expect(await count('medicare_rvus')).toBe(figures.rvus);
      expect(await count('medicare_gpcis')).toBe(figures.gpcis);
      // The folder's OPPSCAP_Oct.csv: 16,100 caps.
      expect(figures.oppsCaps).toBe(16_100);
      expect(await count('medicare_opps_caps')).toBe(16_100);
    },
    120_000,
  );

  itWithDataFile(
    'takes the fee schedule files for what their names say, in any order',
    'cms-pfs-rvu-2025/PPRRVU2025_Oct.csv',
    async (file) => {
      const folder = path.dirname(file);
      const zip5 = path.join(folder, '..', 'cms-zip-locality', 'ZIP5_OCT2025.txt');
      const caps = path.join(folder, 'OPPSCAP_Oct.csv');
      const run = await reference(['pfs', caps, zip5, path.join(folder, 'GPCI2025.csv'), file]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const figures = summary(run.stdout);
      expect(figures.oppsCaps).toBe(await count('medicare_opps_caps'));
      expect(figures.rvus).toBe(await count('medicare_rvus'));
      expect(figures.zips).toBe(await count('zip_localities'));
      expect(figures.zips).toBeGreaterThan(40_000);
    },
    120_000,
  );

  it('answers a missing file with one sentence naming it, and loads nothing', async () => {
    const missing = path.join(dir, 'no-such-list1.csv');
    const before = await count('counties');
    const run = await reference(['cbsa', missing]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `reference failed: ${missing}: expected a readable file; found no file at that path`,
    );
    expect(await count('counties')).toBe(before);
  }, 30_000);

  it('reads every file of the fee schedule before loading any: a bad ZIP5 file loads nothing', async () => {
    const { rvu, gpci, zip5 } = await feeScheduleFiles(
      '99213,,x,A,1.3,1.35,0.55,0.1,XXX,32.3465',
      '10112,AL,00,ALABAMA,1,0.869,0.575',
      'not a ZIP5 record\n',
    );
    const before = [await count('medicare_rvus'), await count('medicare_gpcis')];
    const run = await reference(['pfs', rvu, gpci, zip5]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(/^reference failed: ZIP5\.txt: expected a ZIP5 record/);
    expect([await count('medicare_rvus'), await count('medicare_gpcis')]).toEqual(before);
  }, 30_000);

  it('loads the fee schedule and its ZIP5 file in one transaction: one the database refuses loads neither', async () => {
    const { rvu, gpci, zip5 } = await feeScheduleFiles(
      '99214,,x,A,1.92,1.9,0.8,0.14,XXX,32.3465',
      '02102,AK,01,ALASKA,1.5,1.081,0.592',
      `AK995010210201 Z9   0 A${' '.repeat(52)}20254\r\n`,
    );
    const pool = database.connection.pool;
    const rvus = () => count(`medicare_rvus WHERE hcpcs = '99214'`);
    const before = [await rvus(), await count('medicare_gpcis'), await count('zip_localities')];
    // A refusal that only the database makes, as a full disk or a lost connection would.
    await pool.query(
      `ALTER TABLE zip_localities ADD CONSTRAINT test_refuses_99501 CHECK (zip <> '99501') NOT VALID`,
    );
    try {
      // --force: one ZIP replaces the 42,956 of the test before, a shrink refused otherwise.
      const refused = await reference(['pfs', '--force', rvu, gpci, zip5]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('test_refuses_99501');
      expect([await rvus(), await count('medicare_gpcis'), await count('zip_localities')]).toEqual(
        before,
      );
    } finally {
      await pool.query('ALTER TABLE zip_localities DROP CONSTRAINT test_refuses_99501');
    }
    const loaded = await reference(['pfs', '--force', rvu, gpci, zip5]);
    expect(loaded.code).toBe(0);
    expect(summary(loaded.stdout)).toMatchObject({ rvus: 1, gpcis: 1, zips: 1 });
  }, 30_000);

  it('answers a folder without the fee schedule files by naming what it needs', async () => {
    const run = await reference(['pfs', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `reference failed: ${dir} must hold a PPRRVU*.csv and a GPCI*.csv file`,
    );
  }, 30_000);

  it('refuses a folder or a command line with two files of one kind, loading nothing', async () => {
    const { rvu, gpci, zip5 } = await feeScheduleFiles(
      '99215,,x,A,2.8,2.6,1.2,0.2,XXX,32.3465',
      '02102,AK,01,ALASKA,1.5,1.081,0.592',
      `AK995010210201 Z9   0 A${' '.repeat(52)}20254\r\n`,
    );
    const folder = path.dirname(rvu);
    // Last quarter's RVU file beside this one's: which one readdir lists first is up to the disk.
    const older = path.join(folder, 'PPRRVU2025_Jan.csv');
    await writeFile(older, await readFile(rvu));
    const rvus = () => count(`medicare_rvus WHERE hcpcs = '99215'`);
    const run = await reference(['pfs', folder]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `reference failed: ${folder} holds 2 PPRRVU*.csv files (PPRRVU.csv, PPRRVU2025_Jan.csv); ` +
        'name the files instead: npm run reference -- pfs <PPRRVU.csv> <GPCI.csv> [ZIP5.txt] [OPPSCAP.csv]',
    );
    const named = await reference(['pfs', rvu, older, gpci, zip5]);
    expect(named.code).toBe(1);
    expect(named.stderr.trim()).toBe(
      `reference failed: pfs takes one PPRRVU file; found ${rvu}, ${older}`,
    );
    expect(await rvus()).toBe(0);
    // Named on the command line, one of them loads.
    const loaded = await reference(['pfs', older, gpci, zip5]);
    expect(loaded.code).toBe(0);
    expect(await rvus()).toBe(1);
  }, 30_000);

  it('refuses an option it does not know rather than taking it for a file, and answers -h', async () => {
    const dryRun = await reference(['cbsa', '--dry-run']);
    expect(dryRun.code).toBe(2);
    expect(dryRun.stderr).toContain('Unknown option --dry-run.');
    expect(dryRun.stderr).toContain('Usage: npm run reference');
    const version = await reference(['--version']);
    expect(version.code).toBe(2);
    expect(version.stderr).toContain('Unknown option --version.');
    const help = await reference(['-h']);
    expect(help.code).toBe(0);
    expect(help.stderr).toContain('Usage: npm run reference');
    expect(help.stderr).toContain('--force');
    const force = await reference(['hcpcs', '--force', 'codes.csv']);
    expect(force.code).toBe(2);
    expect(force.stderr).toContain('--force applies to cbsa, pfs, zip-locality only, not hcpcs.');
    // After "--", a name that starts with "-" is a file.
    const file = await reference(['cbsa', '--', '--dry-run']);
    expect(file.code).toBe(1);
    expect(file.stderr).toContain(
      '--dry-run: expected a readable file; found no file at that path',
    );
  }, 30_000);

  it('loads a fee schedule as the year its files say, and refuses files of different years', async () => {
    const folder = await mkdtemp(path.join(dir, 'pfs-2026-'));
    const rvuFile = (factor: string) =>
      ',,2026 National Physician Fee Schedule Relative Value File January Release,,,,,,,\n' +
      ',,,STATUS,WORK,NON-FAC,FACILITY,MP,GLOB,CONV\n' +
      'HCPCS,MOD,DESCRIPTION,CODE,RVU,PE RVU,PE RVU,RVU,DAYS,FACTOR\n' +
      `99212,,x,A,0.7,1.1,0.3,0.05,XXX,${factor}\n`;
    const gpciFile = (year: number) =>
      `Medicare Administrative Contractor (MAC),State,Locality Number,Locality Name,${year} PW GPCI (with 1.0 Floor),${year} PE GPCI,${year} MP GPCI\n` +
      '10112,AL,00,ALABAMA,1,0.869,0.575\n';
    const rvu = path.join(folder, 'PPRRVU2026_Jan_nonQPP.csv');
    const gpci2025 = path.join(folder, 'GPCI2025.csv');
    const gpci2026 = path.join(folder, 'GPCI2026.csv');
    await writeFile(rvu, rvuFile('33.4009'));
    await writeFile(gpci2025, gpciFile(2025));
    await writeFile(gpci2026, gpciFile(2026));
    const rows = (year: number) => count(`medicare_rvus WHERE year = ${year}`);
    const rows2025 = await rows(2025);

    const mixed = await reference(['pfs', rvu, gpci2025]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr.trim()).toBe(
      'reference failed: the fee schedule files are of different years: ' +
        'PPRRVU2026_Jan_nonQPP.csv 2026 (its banner and its file name), ' +
        "GPCI2025.csv 2025 (its header and its file name); give one year's files together",
    );
    expect([await rows(2025), await rows(2026)]).toEqual([rows2025, 0]);

    const loaded = await reference(['pfs', rvu, gpci2026]);
    expect(loaded.stderr).toBe('');
    expect(loaded.code).toBe(0);
    expect(summary(loaded.stdout)).toMatchObject({ year: 2026, rvus: 1, gpcis: 1 });
    expect([await rows(2025), await rows(2026)]).toEqual([rows2025, 1]);
    const { rows: factors } = await database.connection.pool.query<{ f: string }>(
      'SELECT conversion_factor::text AS f FROM medicare_rvus WHERE year = 2026',
    );
    expect(factors.map((row) => Number(row.f))).toEqual([33.4009]);

    // No conversion factor in the file, and none known for 2026: 2025's is not used.
    await writeFile(rvu, rvuFile(''));
    const noFactor = await reference(['pfs', rvu, gpci2026]);
    expect(noFactor.code).toBe(1);
    expect(noFactor.stderr.trim()).toBe(
      'reference failed: PPRRVU2026_Jan_nonQPP.csv: expected a conversion factor for 2026; ' +
        'found no CONV FACTOR in any of its 1 code rows, and none known for 2026',
    );
    expect([await rows(2025), await rows(2026)]).toEqual([rows2025, 1]);
  }, 60_000);

  it('takes the ZIP5 file of a folder that also holds its record layout, ZIP5lyout.txt', async () => {
    const { zip5 } = await feeScheduleFiles(
      '99211,,x,A,0.18,0.5,0.07,0.01,XXX,32.3465',
      '02102,AK,01,ALASKA,1.5,1.081,0.592',
      `AK995010210201 Z9   0 A${' '.repeat(52)}20254\r\n`,
    );
    const folder = path.dirname(zip5);
    await writeFile(
      path.join(folder, 'ZIP5lyout.txt'),
      'Zip5 Record Layout\r\nSTATE  1-2  X(2)\r\nZIP CODE  3-7  X(5)\r\n',
    );
    // --force: its one ZIP replaces those loaded by the tests before.
    const run = await reference(['pfs', '--force', folder]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(summary(run.stdout)).toMatchObject({ year: 2025, rvus: 1, gpcis: 1, zips: 1 });
  }, 30_000);

  itWithDataFile(
    'refuses a file that would shrink the CBSA or ZIP tables unless --force',
    'census-cbsa/list1_2023_county_to_cbsa.csv',
    async (file) => {
      const [header = '', firstRow = ''] = (await readFile(file, 'utf8')).split('\n');
      const oneCounty = path.join(dir, 'list1_one_county.csv');
      await writeFile(oneCounty, `${header}\n${firstRow}\n`);
      await expect(reference(['cbsa', file])).resolves.toMatchObject({ code: 0 });
      const counties = await count('counties');
      const refused = await reference(['cbsa', oneCounty]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('refused to replace the');
      expect(await count('counties')).toBe(counties);
      const forced = await reference(['cbsa', oneCounty, '--force']);
      expect(forced.stderr).toBe('');
      expect(forced.code).toBe(0);
      expect(await count('counties')).toBe(1);

      // pfs's ZIP5 file and zip-locality: two ZIPs loaded, then one, in another state.
      const zip = (state: string, code: string) =>
        `${state}${code}0210201 Z9   0 A${' '.repeat(52)}20254\r\n`;
      const { rvu, gpci, zip5 } = await feeScheduleFiles(
        '99212,,x,A,0.7,1.1,0.3,0.05,XXX,32.3465',
        '02102,AK,01,ALASKA,1.5,1.081,0.592',
        zip('AK', '99501') + zip('AK', '99502'),
      );
      await expect(reference(['zip-locality', '--force', zip5])).resolves.toMatchObject({
        code: 0,
      });
      await writeFile(zip5, zip('HI', '96801'));
      const pfs = await reference(['pfs', rvu, gpci, zip5]);
      expect(pfs.code).toBe(1);
      expect(pfs.stderr).toContain('refused to replace the 2 ZIP localities loaded with 1');
      const zipLocality = await reference(['zip-locality', zip5]);
      expect(zipLocality.code).toBe(1);
      expect(zipLocality.stderr).toContain('refused to replace the 2 ZIP localities loaded with 1');
      expect(await count('zip_localities')).toBe(2);
      const forcedPfs = await reference(['pfs', '--force', rvu, gpci, zip5]);
      expect(forcedPfs.code).toBe(0);
      expect(await count(`zip_localities WHERE zip = '96801'`)).toBe(1);
    },
    120_000,
  );

  it('prints its usage for an unknown kind or a missing file, with exit code 2', async () => {
    const unknown = await reference(['drg', 'x.csv']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown kind "drg".');
    expect(unknown.stderr).toContain('Usage: npm run reference -- <kind> <path|url>');
    const bare = await reference(['hcpcs']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('hcpcs needs a file: a path or an http(s) URL.');
    expect(bare.stderr).toContain('Usage: npm run reference');
  }, 30_000);

  it('takes a relative path from the directory npm was run in, not the repository root', async () => {
    // A relative path is the caller's: npm runs the script at the repository's root.
    const relative = await runCli('packages/ingest/src/cli/reference.ts', ['hcpcs', 'codes.csv'], {
      DATABASE_URL: database.url,
      INIT_CWD: dir,
    });
    expect(relative.code).toBe(1);
    expect(relative.stderr).toContain(
      `${path.join(dir, 'codes.csv')}: expected a readable file; found no file at that path`,
    );
  }, 30_000);

  it('refuses files it would not read, rather than loading the first and ignoring the rest', async () => {
    const two = await reference(['hcpcs', 'a.csv', 'b.csv']);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('hcpcs reads one file; 2 were given.');
    const five = await reference(['pfs', 'a', 'b', 'c', 'd', 'e']);
    expect(five.stderr).toContain('pfs reads at most 4 files; 5 were given.');
    const states = await reference(['states', 'states.csv']);
    expect(states.stderr).toContain('states is built in and reads no file.');
  }, 30_000);

  it('refuses a file of a kind read whole past its size limit in one line, before reading it', async () => {
    // Sparse: no disk used, but its size is what stat reports.
    const huge = path.join(dir, 'huge-hcpcs.csv');
    await writeFile(huge, '');
    await truncate(huge, REFERENCE_MAX_BYTES + 1);
    const before = await count('codes');
    const run = await reference(['hcpcs', huge]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `reference failed: ${huge}: expected a reference file of at most 100 MB; found 101 MB\n`,
    );
    expect(await count('codes')).toBe(before);
    await rm(huge);
  }, 30_000);

  describe('nadac', () => {
    const HEADER =
      'NDC Description,NDC,NADAC_Per_Unit,Effective_Date,Pricing_Unit,Pharmacy_Type_Indicator,OTC,Explanation_Code,Classification_for_Rate_Setting,Corresponding_Generic_Drug_NADAC_Per_Unit,Corresponding_Generic_Drug_Effective_Date,As of Date\n';
    const row = (i: number) =>
      `ATORVASTATIN ${i % 80} MG TABLET,${String(10_000_000_000 + i * 7).slice(-11)},` +
      `${(0.01 + (i % 997) / 100).toFixed(5)},${String(1 + (i % 12)).padStart(2, '0')}/17/2025,` +
      `EA,C/I,N,"1, 5",G,0.03123,09/17/2025,09/24/2025\n`;

    /** A NADAC-shaped CSV of at least `bytes` bytes in `dir`, its rows each of one NDC. */
    async function generated(bytes: number): Promise<{ file: string; rows: number }> {
      const file = path.join(dir, 'nadac-generated.csv');
      const out = createWriteStream(file);
      let written = HEADER.length;
      let rows = 0;
      out.write(HEADER);
      while (written < bytes) {
        let chunk = '';
        while (chunk.length < 1 << 20) chunk += row(rows++);
        written += chunk.length;
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await finished(out);
      return { file, rows };
    }

    it('streams a large NADAC file: peak memory stays flat, and the rows stored are counted', async () => {
      // Read whole, a 34 MB file peaked at 452 MB RSS (13 times its size) and 500 MB crashed
      // the process: streamed, 80 MB stays under 250 MB (about 200 measured; 242 at 480 MB).
      const { file, rows } = await generated(80_000_000);
      try {
        expect((await stat(file)).size).toBeGreaterThanOrEqual(80_000_000);
        const run = await reference(['nadac', file]);
        expect(run.code, run.stderr).toBe(0);
        // A bar for the read (on a line every 5 s and at its end, stderr being a pipe here), then
        // what the minutes after it are for.
        const said = run.stderr.trimEnd().split('\n');
        const size = ((await stat(file)).size / 1e6).toFixed(1);
        expect(said.at(-2)).toMatch(
          new RegExp(
            `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\[#{28}\\] 100% ${size}/${size} MB ` +
              '[\\d.]+ MB/s, [1-9][\\d,]* records/s$',
          ),
        );
        expect(said.at(-1)).toBe(
          `${rows.toLocaleString('en-US')} price rows read; checking and storing them…`,
        );
        const figures = summary(run.stdout);
        expect(figures).toMatchObject({ kind: 'nadac', prices: rows, rows, keptNewer: 0 });
        expect(figures.peakRssMb).toBeLessThan(250);
        expect(await count('nadac_prices')).toBe(rows);
      } finally {
        await rm(file, { force: true });
      }
    }, 180_000);

    it('loads nothing of a file with a bad row, and says so in one line naming the line', async () => {
      const file = path.join(dir, 'nadac-bad.csv');
      const rows = Array.from({ length: 5000 }, (_, i) => row(1_000_000 + i));
      rows.push('X,00378212177,abc,09/17/2025,EA,C/I,N,,G,,,09/24/2025\n');
      await writeFile(file, HEADER + rows.join(''));
      const before = await count('nadac_prices');
      const run = await reference(['nadac', file]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('5,000 price rows read; checking and storing them…\n');
      expect(run.stderr.split('\n').filter((line) => line.startsWith('reference'))).toEqual([
        'reference failed: nadac-bad.csv: expected a number at line 5002; found abc',
      ]);
      expect(run.stderr.endsWith('found abc\n')).toBe(true);
      expect(await count('nadac_prices')).toBe(before);
    }, 30_000);
  });
});
