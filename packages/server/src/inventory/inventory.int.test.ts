import type { ApiError, HospitalDetail } from '@ratelens/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.ts';
import { INTERRUPTED_RUN, ValidationReport } from '@ratelens/ingest';

let test: TestApp;
const RATE_MIX = {
  payers: 2,
  plans: 3,
  byLineOfBusiness: {
    commercial: 30,
    'medicare-advantage': 10,
    'medicaid-managed-care': 0,
    exchange: 0,
    other: 0,
  },
  byOrigin: { dollar: 38, 'percentage-of-gross': 2, median: 0, estimated: 0, none: 0 },
};
const ids: Record<string, string> = {};

/** A small inventory written straight into the tables the ingester fills. */
async function seed(): Promise<void> {
  const pool = test.database.connection.pool;
  await pool.query(
    `INSERT INTO states (code, name, fips) VALUES ('AK', 'Alaska', '02'), ('MA', 'Massachusetts', '25'), ('AL', 'Alabama', '01')`,
  );
  await pool.query(`INSERT INTO cbsas (code, title, kind, state_codes) VALUES
    ('11260', 'Anchorage, AK', 'metropolitan', '{AK}'), ('21820', 'Fairbanks-College, AK', 'metropolitan', '{AK}'),
    ('27940', 'Juneau, AK', 'micropolitan', '{AK}'), ('99902', 'Alaska non-metropolitan area', 'nonmetro', '{AK}')`);
  const hospitals = [
    [
      'anchorage',
      'Demo Northern Lights Medical Center',
      'AK',
      '11260',
      '{"Northern Lights Campus"}',
    ],
    [
      'fairbanks',
      'Demo Tanana Valley Hospital',
      'AK',
      '21820',
      '{"Tanana Valley Campus","North Pole Clinic","Ester Emergency"}',
    ],
    ['vineyard', "Martha's Vineyard Hospital", 'MA', null, '{}'],
  ] as const;
  for (const [key, name, state, cbsa, locations] of hospitals) {
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO hospitals (source_key, name, state_code, cbsa_code, location_names, addresses, is_demo)
       VALUES ($1, $2, $3, $4, $5, '{"1 Main St, Anchorage, AK 99508"}', $6) RETURNING id`,
      [key, name, state, cbsa, locations, name.startsWith('Demo')],
    );
    ids[key] = rows[0]?.id ?? '';
  }
  await pool.query(
    `INSERT INTO hospital_summaries (hospital_id, items, rates, has_cash, has_commercial, has_medicare, has_inpatient, has_outpatient, has_drugs)
     VALUES ($1, 10, 40, true, true, false, true, true, false)`,
    [ids.anchorage],
  );
  await pool.query(
    `INSERT INTO mrf_files (hospital_id, source, status, format, version, last_updated_on, items, rates, rejected, validation, rate_mix, finished_at,
                            source_page_url, listed_in)
     VALUES ($1, '/data/files/anchorage_standardcharges.json', 'loaded', 'json', '3.0.0', '2026-01-15', 10, 40, 1,
             '{"lines": [{"sentence": "Error: 1 rate had no payer name, first at item 4", "examples": ["item 4"]}]}', $2, now(),
             'javascript:alert(1)', '/data/files/cms-hpt.txt')`,
    [ids.anchorage, JSON.stringify(RATE_MIX)],
  );
  // A file with nothing to report: its one line of totals is not shown.
  await pool.query(
    `INSERT INTO mrf_files (hospital_id, source, status, format, version, items, rates, validation, finished_at)
     VALUES ($1, 'fairbanks.json', 'loaded', 'json', '3.0.0', 5, 12,
             '{"errorCount": 0, "warningCount": 0, "recordsRejected": 0, "payersRejected": 0,
               "lines": [{"sentence": "5 charges with 12 payer rates read; 0 charges and 0 rates rejected; 0 errors, 0 warnings.", "examples": []}]}',
             now())`,
    [ids.fairbanks],
  );
  // Read before rates were counted; a mix the ingester never writes (a count below zero) too.
  await pool.query(
    `INSERT INTO mrf_files (hospital_id, source, status, format, version, items, rates, validation, rate_mix, started_at, finished_at,
                            source_page_url, contact_name, contact_email, listed_in)
     VALUES ($1, 'https://anchorage.example/mrf/2025%20charges.csv', 'replaced', 'csv-tall', '2.2.0', 8, 30,
             '{"sentences": ["8 charges with 30 payer rates read."], "lines": "unreadable"}', '{"payers": -1}', now() - interval '30 days', now() - interval '30 days',
             'https://anchorage.example/prices', 'Jane Doe', 'prices@anchorage.example',
             'https://anchorage.example/cms-hpt.txt')`,
    [ids.anchorage],
  );
}

beforeAll(async () => {
  test = await createTestApp();
  await seed();
});
afterAll(async () => {
  await test.close();
});

const get = (url: string) => test.app.inject({ method: 'GET', url });
/** The files a hospital's page lists, as the API sends them. */
const filesOf = async (hospitalId: string | undefined) =>
  (await get(`/api/Inventory/hospital/${hospitalId ?? ''}`)).json<HospitalDetail>().files;

describe('GET api/master/getallstates', () => {
  it('lists states by name with their FIPS number as stateID', async () => {
    const response = await get('/api/master/getallstates');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { stateID: 1, stateName: 'Alabama', stateCode: 'AL' },
      { stateID: 2, stateName: 'Alaska', stateCode: 'AK' },
      { stateID: 25, stateName: 'Massachusetts', stateCode: 'MA' },
    ]);
  });
});

describe('metro areas', () => {
  it('Subscription/getmsafilter lists the CBSAs of a state that have hospitals', async () => {
    const response = await get('/api/Subscription/getmsafilter?stateCode=ak');
    expect(response.json()).toEqual([
      { msaID: '11260', MSA: 'Anchorage, AK', TableName: '11260' },
      { msaID: '21820', MSA: 'Fairbanks-College, AK', TableName: '21820' },
    ]);
  });

  it('inventory/getmsabystatename finds them by state name, and says so for an unknown one', async () => {
    expect((await get('/api/inventory/getmsabystatename?state=Alaska')).json()).toHaveLength(2);
    const unknown = await get('/api/inventory/getmsabystatename?state=Atlantis');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      errors: [{ field: 'state', message: 'Atlantis is not a state we know.' }],
    });
  });

  it('answers a state code that is no state (GU, ZZ) with 400, not an empty list', async () => {
    for (const code of ['GU', 'zz']) {
      const response = await get(`/api/Subscription/getmsafilter?stateCode=${code}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        errors: [{ field: 'stateCode', message: `${code} is not a state we know.` }],
      });
    }
  });

  it('answers a malformed state code with 400 naming it', async () => {
    const response = await get('/api/Subscription/getmsafilter?stateCode=Alaska');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [
        { field: 'stateCode', message: 'stateCode must be a two-letter state code such as AK.' },
      ],
    });
    expect((await get('/api/Subscription/getmsafilter')).json()).toMatchObject({
      errors: [{ field: 'stateCode', rule: 'required' }],
    });
  });
});

describe('GET api/Inventory/getHospitalbyFilter', () => {
  it('lists the hospitals of a state and metro area', async () => {
    const filter = encodeURIComponent(JSON.stringify({ statename: 'Alaska', msaId: '11260' }));
    const response = await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${filter}`);
    expect(response.json()).toEqual([
      { hospitalID: ids.anchorage, facilityName: 'Demo Northern Lights Medical Center' },
    ]);
  });

  it('takes a numeric msaId and a state alone', async () => {
    const byState = encodeURIComponent(JSON.stringify({ statename: 'alaska' }));
    expect(
      (await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${byState}`)).json(),
    ).toHaveLength(2);
    const numeric = encodeURIComponent(JSON.stringify({ statename: 'Alaska', msaId: 21820 }));
    expect((await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${numeric}`)).json()).toEqual([
      { hospitalID: ids.fairbanks, facilityName: 'Demo Tanana Valley Hospital' },
    ]);
  });

  it('takes an empty statename as any state, and refuses one that is no state', async () => {
    const any = encodeURIComponent(JSON.stringify({ statename: '', msaId: '21820' }));
    expect((await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${any}`)).json()).toEqual([
      { hospitalID: ids.fairbanks, facilityName: 'Demo Tanana Valley Hospital' },
    ]);
    const unknown = encodeURIComponent(JSON.stringify({ statename: 'Atlantis' }));
    const response = await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${unknown}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [{ field: 'FilterJson.statename', message: 'Atlantis is not a state we know.' }],
    });
  });

  it('refuses a key it does not take, rather than list every hospital', async () => {
    const misspelt = encodeURIComponent(JSON.stringify({ stateName: 'Alaska', msaID: '11260' }));
    const response = await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${misspelt}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [
        {
          field: 'FilterJson',
          message: 'FilterJson takes statename and msaId, not stateName or msaID.',
        },
      ],
    });
  });

  const filterErrors = async (filter: unknown) => {
    const query = encodeURIComponent(typeof filter === 'string' ? filter : JSON.stringify(filter));
    const response = await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${query}`);
    expect(response.statusCode).toBe(400);
    return response.json<ApiError>().errors;
  };

  it('names the key and the rule of a FilterJson it refuses', async () => {
    expect(await filterErrors({ statename: 'A'.repeat(61) })).toEqual([
      {
        field: 'FilterJson.statename',
        rule: 'too_big',
        message: 'statename must not be more than 60 characters.',
      },
    ]);
    expect(await filterErrors({ statename: 7 })).toEqual([
      { field: 'FilterJson.statename', rule: 'invalid_type', message: 'statename must be text.' },
    ]);
    expect(await filterErrors({ statename: 'Alaska', msaId: true })).toEqual([
      {
        field: 'FilterJson.msaId',
        rule: 'invalid_union',
        message: 'msaId must be text or a number.',
      },
    ]);
    expect(await filterErrors(['Alaska'])).toEqual([
      {
        field: 'FilterJson',
        rule: 'invalid_type',
        message: 'FilterJson must be a JSON object such as {"statename":"Alaska","msaId":"11260"}.',
      },
    ]);
  });

  it('refuses an msaId that is no metro area id, rather than find nothing', async () => {
    for (const msaId of ['abc', -1, 123456, '1126', 11260.5, '11260x']) {
      expect(await filterErrors({ statename: 'Alaska', msaId })).toEqual([
        {
          field: 'FilterJson.msaId',
          rule: 'invalid_format',
          message: 'msaId must be a metro area id of five digits such as 11260.',
        },
      ]);
    }
  });

  it('trims msaId and takes an empty or null one as any metro area', async () => {
    const padded = encodeURIComponent(JSON.stringify({ statename: 'Alaska', msaId: ' 21820 ' }));
    expect((await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${padded}`)).json()).toEqual([
      { hospitalID: ids.fairbanks, facilityName: 'Demo Tanana Valley Hospital' },
    ]);
    const any = encodeURIComponent(JSON.stringify({ statename: 'Alaska', msaId: '' }));
    expect((await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${any}`)).json()).toHaveLength(
      2,
    );
  });

  it('refuses a metro area id that names no metro area, and lists none for one of another state', async () => {
    expect(await filterErrors({ statename: 'Alaska', msaId: '12345' })).toEqual([
      {
        field: 'FilterJson.msaId',
        rule: 'unknown',
        message: '12345 is not a metro area we know.',
      },
    ]);
    const elsewhere = encodeURIComponent(JSON.stringify({ statename: 'Alabama', msaId: '21820' }));
    const response = await get(`/api/Inventory/getHospitalbyFilter?FilterJson=${elsewhere}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it("says so when a state's code is given where its name is asked for", async () => {
    expect(await filterErrors({ statename: 'AK' })).toEqual([
      {
        field: 'FilterJson.statename',
        rule: 'custom',
        message: "statename must be a state's name such as Alaska, not its code AK.",
      },
    ]);
    const response = await get('/api/inventory/getmsabystatename?state=ak');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [
        {
          field: 'state',
          message: "state must be a state's name such as Alaska, not its code ak.",
        },
      ],
    });
  });

  it('answers a parameter given twice with 400 saying so', async () => {
    const filter = encodeURIComponent(JSON.stringify({ statename: 'Alaska' }));
    const twice = await get(
      `/api/Inventory/getHospitalbyFilter?FilterJson=${filter}&FilterJson=${filter}`,
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json<ApiError>().errors).toEqual([
      { field: 'FilterJson', rule: 'repeated', message: 'FilterJson must be given once.' },
    ]);
    const state = await get('/api/inventory/getmsabystatename?state=Alaska&state=Alaska');
    expect(state.json<ApiError>().errors).toEqual([
      { field: 'state', rule: 'repeated', message: 'state must be given once.' },
    ]);
  });

  it('answers FilterJson that is not JSON with 400', async () => {
    const response = await get('/api/Inventory/getHospitalbyFilter?FilterJson=alaska');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'FilterJson' }] });
  });
});

describe('GET api/Inventory/InventoryListings', () => {
  it('lists every hospital with the spec’s columns, files or not', async () => {
    const rows = (await get('/api/Inventory/InventoryListings')).json<Record<string, unknown>[]>();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({
      hospitalID: ids.anchorage,
      stateName: 'Alaska',
      msaName: 'Anchorage, AK',
      careCenter: 'Northern Lights Campus',
      facilityName: 'Demo Northern Lights Medical Center',
      hasFiles: true,
      cashRates: true,
      commercialRates: true,
      medicareRates: false,
      inpatient: true,
      outpatient: true,
      drugs: false,
    });
    expect(rows.find((r) => r.hospitalID === ids.fairbanks)?.careCenter).toBe(
      'Tanana Valley Campus and 2 more',
    );
    expect(rows.find((r) => r.hospitalID === ids.vineyard)).toMatchObject({
      stateName: 'Massachusetts',
      msaName: '',
      hasFiles: false,
    });
  });
});

describe('GET api/Inventory/hospital/:id', () => {
  it('shows the files with their version, date and validation summary in plain words', async () => {
    const response = await get(`/api/Inventory/hospital/${ids.anchorage}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      facilityName: 'Demo Northern Lights Medical Center',
      isDemo: true,
      msaName: 'Anchorage, AK',
      files: [
        {
          source: 'anchorage_standardcharges.json',
          sourceUrl: null,
          status: 'loaded',
          version: '3.0.0',
          lastUpdatedOn: '2026-01-15',
          rejected: 1,
          validation: [
            {
              sentence: 'Error: 1 rate had no payer name, first at item 4',
              examples: ['item 4'],
            },
          ],
          rateMix: RATE_MIX,
          // Never a link to anything but a web page.
          sourcePageUrl: null,
          contactName: null,
          listedInUrl: null,
        },
        {
          source: '2025 charges.csv',
          sourceUrl: 'https://anchorage.example/mrf/2025%20charges.csv',
          status: 'replaced',
          version: '2.2.0',
          // Recorded before examples were kept: its sentences alone.
          validation: [{ sentence: '8 charges with 30 payer rates read.', examples: [] }],
          rateMix: null,
          sourcePageUrl: 'https://anchorage.example/prices',
          contactName: 'Jane Doe',
          contactEmail: 'prices@anchorage.example',
          listedInUrl: 'https://anchorage.example/cms-hpt.txt',
        },
      ],
    });
  });

  it("words a file's stored report in today's words, not those it was stored with", async () => {
    const pool = test.database.connection.pool;
    const report = new ValidationReport();
    report.recordsRead = 3;
    report.add('required.payer_name', 'standard_charge_information[3].standard_charges[0]');
    const stored = (lines: unknown) => JSON.stringify({ ...report.toJSON(), lines });
    const older = [{ sentence: 'Error: 1 payer rate had no payer (older words)', examples: [] }];
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO hospitals (source_key, name, state_code, addresses)
       VALUES ('reworded', 'Reworded Test Hospital', 'AK', '{}') RETURNING id`,
    );
    const hospitalId = rows[0]?.id ?? '';
    try {
      // One run stored with older words; one whose rule has since been renamed keeps its own.
      const renamed = JSON.stringify({
        ...report.toJSON(),
        rules: [{ ...report.toJSON().rules[0], rule: 'required.payer-renamed' }],
        lines: older,
      });
      await pool.query(
        `INSERT INTO mrf_files (hospital_id, source, status, items, rates, validation, started_at, finished_at)
         VALUES ($1, 'reworded.json', 'loaded', 3, 0, $2, now(), now()),
                ($1, 'renamed.json', 'replaced', 3, 0, $3, now() - interval '1 day', now() - interval '1 day')`,
        [hospitalId, stored(older), renamed],
      );
      const files = await filesOf(hospitalId);
      expect(files.map((file) => [file.source, file.validation])).toEqual([
        [
          'reworded.json',
          [
            {
              sentence:
                '3 charges with 0 payer rates read; 0 charges and 0 rates rejected; 1 error, 0 warnings.',
              examples: [],
            },
            {
              sentence: 'Error: 1 rate had no payer name, first at item 4, standard charge 1',
              examples: ['item 4, standard charge 1'],
            },
          ],
        ],
        ['renamed.json', older],
      ]);
    } finally {
      await pool.query('DELETE FROM mrf_files WHERE hospital_id = $1', [hospitalId]);
      await pool.query('DELETE FROM hospitals WHERE id = $1', [hospitalId]);
    }
  });

  it('has no validation lines for a file with nothing to report', async () => {
    const response = await get(`/api/Inventory/hospital/${ids.fairbanks}`);
    expect(response.json()).toMatchObject({
      files: [{ source: 'fairbanks.json', items: 5, rates: 12, validation: [] }],
    });
  });

  it('says how far a file being loaded has been read, and of no other run', async () => {
    const pool = test.database.connection.pool;
    const progress = { bytesRead: 12_300_000, totalBytes: 36_600_000, records: 8104 };
    // The loading run; a failed one whose last progress was left (a process killed mid-read);
    // a loading one whose progress is no FileProgress (null: its first write is to come); and
    // one left loading by a process that died. The ingester holds a live run's advisory lock,
    // keyed by the first 64 bits of the SHA-256 of its id (these two keys: one positive, one
    // negative).
    const [loading, odd, died] = [1, 2, 5].map((n) => `00000000-0000-4000-8000-00000000000${n}`);
    await pool.query(
      `INSERT INTO mrf_files (id, hospital_id, source, status, progress, started_at, finished_at)
       VALUES ($2, $1, 'progress-loading.json', 'loading', $5, now() + interval '4 minutes', NULL),
              (DEFAULT, $1, 'progress-failed.json', 'failed', $5, now() + interval '3 minutes', now() + interval '3 minutes'),
              ($3, $1, 'progress-odd.json', 'loading', '{"bytesRead": -1}', now() + interval '2 minutes', NULL),
              ($4, $1, 'progress-died.json', 'loading', $5, now() + interval '1 minute', NULL)`,
      [ids.fairbanks, loading, odd, died, JSON.stringify(progress)],
    );
    const ingester = await pool.connect();
    try {
      await ingester.query(
        `SELECT pg_advisory_lock(('x' || left(encode(sha256(id::text::bytea), 'hex'), 16))::bit(64)::int8)
           FROM unnest($1::uuid[]) AS id`,
        [[loading, odd]],
      );
      const files = await filesOf(ids.fairbanks);
      expect(files.map((file) => [file.source, file.status, file.progress, file.error])).toEqual([
        // Written before runs said which pass they were in: reading.
        ['progress-loading.json', 'loading', { phase: 'reading', ...progress }, null],
        ['progress-failed.json', 'failed', null, null],
        ['progress-odd.json', 'loading', null, null],
        ['progress-died.json', 'failed', null, INTERRUPTED_RUN],
        ['fairbanks.json', 'loaded', null, null],
      ]);
      // Tried when it started, as it never finished; a live run has no such date yet.
      const [started] = await pool
        .query<{ at: Date }>(`SELECT started_at AS at FROM mrf_files WHERE id = $1`, [died])
        .then((result) => result.rows);
      expect(files.map((file) => file.loadedAt).slice(2, 4)).toEqual([
        null,
        started?.at.toISOString(),
      ]);
    } finally {
      await ingester.query('SELECT pg_advisory_unlock_all()');
      ingester.release();
      await pool.query(`DELETE FROM mrf_files WHERE source LIKE 'progress-%'`);
    }
  });

  it('lists the 20 latest runs, and the file in use however many came after it', async () => {
    const pool = test.database.connection.pool;
    await pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, error, started_at, finished_at)
       SELECT $1, 'retry-' || n || '.json', 'failed', 'The file has no content.',
              now() + n * interval '1 minute', now() + n * interval '1 minute'
         FROM generate_series(1, 25) AS n`,
      [ids.fairbanks],
    );
    const files = await filesOf(ids.fairbanks);
    expect(files).toHaveLength(21);
    expect(files[0]).toEqual(expect.objectContaining({ source: 'retry-25.json' }));
    expect(files[19]?.source).toBe('retry-6.json');
    expect(files[20]).toEqual(
      expect.objectContaining({ source: 'fairbanks.json', status: 'loaded' }),
    );
    await pool.query(`DELETE FROM mrf_files WHERE source LIKE 'retry-%'`);
  });

  it("shows a file error without the server's folders", async () => {
    const pool = test.database.connection.pool;
    await pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, error, started_at, finished_at)
       VALUES ($1, '/srv/ratelens/mrf/private/denied.json', 'failed',
               'EACCES: permission denied, open ''/srv/ratelens/mrf/private/denied.json''',
               now() + interval '1 hour', now() + interval '1 hour')`,
      [ids.fairbanks],
    );
    const [file] = await filesOf(ids.fairbanks);
    expect([file?.source, file?.error]).toEqual([
      'denied.json',
      "EACCES: permission denied, open 'denied.json'",
    ]);
    await pool.query(`DELETE FROM mrf_files WHERE source LIKE '%/denied.json'`);
  });

  it('lists a file found unchanged run after run once, with how many times and since when', async () => {
    const pool = test.database.connection.pool;
    // After the file in use: 25 runs finding it unchanged, a failed run, 2 more unchanged runs,
    // and one of another file.
    await pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, started_at, finished_at)
       SELECT $1, CASE WHEN n = 29 THEN 'repeat-other.json' ELSE 'repeat.json' END,
              CASE WHEN n = 26 THEN 'failed' ELSE 'unchanged' END,
              timestamptz '2030-01-01' + n * interval '1 day', timestamptz '2030-01-01' + n * interval '1 day'
         FROM generate_series(1, 29) AS n`,
      [ids.fairbanks],
    );
    const files = await filesOf(ids.fairbanks);
    await pool.query(`DELETE FROM mrf_files WHERE source LIKE 'repeat%'`);
    const day = (n: number) => new Date(Date.UTC(2030, 0, 1 + n)).toISOString();
    expect(
      files.map((file) => [
        file.source,
        file.status,
        file.timesRead,
        file.firstReadAt,
        file.loadedAt,
      ]),
    ).toEqual([
      ['repeat-other.json', 'unchanged', 1, day(29), day(29)],
      ['repeat.json', 'unchanged', 2, day(27), day(28)],
      ['repeat.json', 'failed', 1, day(26), day(26)],
      // All 25, though only 20 runs would be listed one by one.
      ['repeat.json', 'unchanged', 25, day(1), day(25)],
      ['fairbanks.json', 'loaded', 1, expect.any(String), expect.any(String)],
    ]);
  });

  it('lists the daily runs of each file a hospital lists once, though they alternate', async () => {
    const pool = test.database.connection.pool;
    // Its list names the file in use and a file passed over: each asked daily, for three days.
    await pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, started_at, finished_at)
       SELECT $1, CASE WHEN n % 2 = 0 THEN 'daily-a.json' ELSE 'daily-b.json' END,
              CASE WHEN n % 2 = 0 THEN 'skipped' ELSE 'unchanged' END,
              timestamptz '2032-01-01' + n * interval '12 hours',
              timestamptz '2032-01-01' + n * interval '12 hours'
         FROM generate_series(1, 6) AS n`,
      [ids.fairbanks],
    );
    const files = await filesOf(ids.fairbanks);
    await pool.query(`DELETE FROM mrf_files WHERE source LIKE 'daily-%'`);
    expect(files.map((file) => [file.source, file.status, file.timesRead])).toEqual([
      ['daily-a.json', 'skipped', 3],
      ['daily-b.json', 'unchanged', 3],
      ['fairbanks.json', 'loaded', 1],
    ]);
  });

  it('lists runs failing alike run after run once, and a run failing otherwise apart', async () => {
    const pool = test.database.connection.pool;
    // A hospital's list taken down, read daily: three days of 404, one of a silent server, two of 404.
    await pool.query(
      `INSERT INTO mrf_files (hospital_id, source, listed_in, status, error, started_at, finished_at)
       SELECT $1, 'https://fairbanks.example/cms-hpt.txt', 'https://fairbanks.example/cms-hpt.txt', 'failed',
              CASE WHEN n = 4 THEN 'silent' ELSE '404' END,
              timestamptz '2031-01-01' + n * interval '1 day', timestamptz '2031-01-01' + n * interval '1 day'
         FROM generate_series(1, 6) AS n`,
      [ids.fairbanks],
    );
    const files = await filesOf(ids.fairbanks);
    await pool.query(
      `DELETE FROM mrf_files WHERE source = 'https://fairbanks.example/cms-hpt.txt'`,
    );
    expect(files.map((file) => [file.status, file.error, file.timesRead])).toEqual([
      ['failed', '404', 2],
      ['failed', 'silent', 1],
      ['failed', '404', 3],
      ['loaded', null, 1],
    ]);
    // The list's own run links to it once, as its source.
    expect(files[0]).toMatchObject({
      sourceUrl: 'https://fairbanks.example/cms-hpt.txt',
      listedInUrl: null,
    });
  });

  it('says of a replaced run whether the run that replaced it read the same bytes', async () => {
    const pool = test.database.connection.pool;
    // File a, then file b, b again (unchanged), b with --reload, and a once more: in use now.
    await pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, sha256, started_at, finished_at)
       SELECT $1, 'vineyard-' || n || '.json', status, sha256,
              now() - (6 - n) * interval '1 hour', now() - (6 - n) * interval '1 hour'
         FROM (VALUES (1, 'replaced', 'a'), (2, 'replaced', 'b'), (3, 'unchanged', 'b'),
                      (4, 'replaced', 'b'), (5, 'loaded', 'a')) AS run (n, status, sha256)`,
      [ids.vineyard],
    );
    const files = await filesOf(ids.vineyard);
    await pool.query(`DELETE FROM mrf_files WHERE source LIKE 'vineyard-%'`);
    expect(files.map((file) => [file.source, file.status, file.replacedBy])).toEqual([
      ['vineyard-5.json', 'loaded', null],
      // Replaced by file a, though b was read again before (no file gives a date).
      ['vineyard-4.json', 'replaced', 'undated'],
      ['vineyard-3.json', 'unchanged', null],
      // Replaced by b read again with --reload; the unchanged run in between replaced nothing.
      ['vineyard-2.json', 'replaced', 'same-file'],
      // Replaced by b, though a is the file in use now.
      ['vineyard-1.json', 'replaced', 'undated'],
    ]);
  });

  it('says of a replaced run whether a newer file, one of the same date or an undated one replaced it', async () => {
    const pool = test.database.connection.pool;
    // Last year's file, this year's, a copy of this year's from elsewhere, a file without a date
    // (taken for the newer), then this year's again: in use now.
    await pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, sha256, last_updated_on, started_at, finished_at)
       SELECT $1, 'dated-' || n || '.json', status, sha256, day::date,
              now() - (6 - n) * interval '1 hour', now() - (6 - n) * interval '1 hour'
         FROM (VALUES (1, 'replaced', 'a', '2025-04-01'), (2, 'replaced', 'b', '2026-04-01'),
                      (3, 'replaced', 'c', '2026-04-01'), (4, 'replaced', 'd', NULL),
                      (5, 'loaded', 'b', '2026-04-01')) AS run (n, status, sha256, day)`,
      [ids.vineyard],
    );
    const files = await filesOf(ids.vineyard);
    await pool.query(`DELETE FROM mrf_files WHERE source LIKE 'dated-%'`);
    expect(files.map((file) => [file.source, file.replacedBy])).toEqual([
      ['dated-5.json', null],
      ['dated-4.json', 'undated'],
      ['dated-3.json', 'undated'],
      ['dated-2.json', 'same-date'],
      ['dated-1.json', 'newer'],
    ]);
  });

  it('answers 404 for an unknown hospital and 400 for a malformed id', async () => {
    expect(
      (await get('/api/Inventory/hospital/6f1c1f7e-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
    const malformed = await get('/api/Inventory/hospital/not-an-id');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      errors: [
        {
          field: 'hospitalId',
          message:
            'hospitalId must be a hospital id: a UUID such as 5b6c2f0e-8d1a-4c3e-9f47-2a1b3c4d5e6f.',
        },
      ],
    });
  });
});
