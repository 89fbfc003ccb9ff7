import type { FailingFile } from '@ratelens/core';
import { loadStates } from '@ratelens/ingest';
import { beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, signedInAdmin, signedInUser, useTestApp } from '../test/app.ts';

const test = useTestApp();

async function hospital(): Promise<string> {
  const { rows } = await test.database.connection.pool.query<{ id: string }>(
    `INSERT INTO hospitals (source_key, name) VALUES (gen_random_uuid()::text, 'Classified Hospital') RETURNING id`,
  );
  return rows[0]?.id ?? '';
}

const classify = (id: string, headers: Record<string, string>, payload: unknown) =>
  test.app.inject({
    method: 'PUT',
    url: `/api/admin/hospitals/${id}/classification`,
    headers,
    payload: payload as Record<string, unknown>,
  });

describe('PUT api/admin/hospitals/:hospitalId/classification', () => {
  it("stores an admin's labels, trimmed", async () => {
    const id = await hospital();
    const admin = await signedInAdmin(test);
    const response = await classify(id, authHeaders(admin), {
      hospitalType: ' Critical Access Hospitals ',
      healthsystemType: 'Independent',
    });
    expect(response.statusCode).toBe(200);
    const { rows } = await test.database.connection.pool.query(
      `SELECT hospital_type, health_system_type FROM hospitals WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({
      hospital_type: 'Critical Access Hospitals',
      health_system_type: 'Independent',
    });
    // The hospital's page shows them (and the admin's form starts from them).
    const detail = await test.app.inject({ method: 'GET', url: `/api/Inventory/hospital/${id}` });
    expect(detail.json()).toMatchObject({
      hospitalType: 'Critical Access Hospitals',
      healthsystemType: 'Independent',
    });
    await classify(id, authHeaders(admin), { hospitalType: '', healthsystemType: null });
    const cleared = await test.app.inject({ method: 'GET', url: `/api/Inventory/hospital/${id}` });
    expect(cleared.json()).toMatchObject({ hospitalType: null, healthsystemType: null });
  });

  it('is for administrators only (401 signed out, 403 otherwise)', async () => {
    const id = await hospital();
    const body = { hospitalType: null, healthsystemType: null };
    expect((await classify(id, {}, body)).statusCode).toBe(401);
    const user = await signedInUser(test.app);
    expect((await classify(id, authHeaders(user), body)).statusCode).toBe(403);
  });

  it('names the field of a bad value (400) and answers 404 for an unknown hospital', async () => {
    const admin = await signedInAdmin(test);
    const tooLong = await classify(await hospital(), authHeaders(admin), {
      hospitalType: 'x'.repeat(61),
      healthsystemType: null,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('hospitalType');
    const wrongType = await classify(await hospital(), authHeaders(admin), {
      hospitalType: 5,
      healthsystemType: null,
    });
    expect(wrongType.statusCode).toBe(400);
    const unknown = await classify('00000000-0000-0000-0000-000000000000', authHeaders(admin), {
      hospitalType: null,
      healthsystemType: null,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('POST api/admin/hospitals/:hospitalId/refresh', () => {
  /** A hospital whose file, read from `source`, is in use; or a demo one. */
  async function hospitalWithFile(source: string, isDemo = false): Promise<string> {
    const pool = test.database.connection.pool;
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO hospitals (source_key, name, is_demo) VALUES (gen_random_uuid()::text, 'Refreshed Hospital', $1) RETURNING id`,
      [isDemo],
    );
    const id = rows[0]?.id ?? '';
    await pool.query(
      `INSERT INTO mrf_files (hospital_id, source, status, finished_at) VALUES ($1, $2, 'loaded', now())`,
      [id, source],
    );
    return id;
  }
  const refresh = (id: string, headers: Record<string, string>) =>
    test.app.inject({ method: 'POST', url: `/api/admin/hospitals/${id}/refresh`, headers });
  const waitingJobs = async (id: string) =>
    (
      await test.database.connection.pool.query<{ data: unknown }>(
        `SELECT data FROM pgboss.job WHERE name = 'rates-refresh' AND state = 'created' AND singleton_key = $1`,
        [id],
      )
    ).rows.map((row) => row.data);

  it("asks the background worker to read the hospital's file again, once while it waits", async () => {
    const id = await hospitalWithFile('https://hospital.example/prices/refreshed.json');
    const admin = await signedInAdmin(test);
    const first = await refresh(id, authHeaders(admin));
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ status: 'waiting' });
    expect(await waitingJobs(id)).toEqual([{ hospitalId: id }]);
    // Asked again before a worker took it up: the waiting request stands for both.
    const second = await refresh(id, authHeaders(admin));
    expect(second.statusCode).toBe(202);
    expect(second.json()).toEqual({ status: 'already-waiting' });
    expect(await waitingJobs(id)).toHaveLength(1);
  });

  it('refuses a hospital with nothing to read again (409), and says why', async () => {
    const admin = await signedInAdmin(test);
    const demo = await refresh(await hospitalWithFile('/demo/demo.json', true), authHeaders(admin));
    expect(demo.statusCode).toBe(409);
    expect(demo.json()).toMatchObject({
      message:
        'This is a demo hospital: its file is made when the server starts, so there is nothing to read again.',
    });
    const none = await refresh(await hospital(), authHeaders(admin));
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({
      message: 'This hospital has no file in use yet, so there is nothing to read again.',
    });
    // Its file was read from a path on this machine, since removed.
    const gone = await refresh(
      await hospitalWithFile('/nonexistent/ratelens/removed.json'),
      authHeaders(admin),
    );
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({
      message:
        "The hospital's file was read from /nonexistent/ratelens/removed.json, which is no longer there, so there is nothing to read again.",
    });
  });

  it('is for administrators only, and answers 404 for an unknown hospital and 400 for no id', async () => {
    const id = await hospitalWithFile('https://hospital.example/prices/not-for-users.json');
    expect((await refresh(id, {})).statusCode).toBe(401);
    const user = await signedInUser(test.app);
    const refused = await refresh(id, authHeaders(user));
    expect(refused.statusCode).toBe(403);
    expect(await waitingJobs(id)).toEqual([]);
    const admin = await signedInAdmin(test);
    expect(
      (await refresh('00000000-0000-0000-0000-000000000000', authHeaders(admin))).statusCode,
    ).toBe(404);
    const bad = await refresh('not-an-id', authHeaders(admin));
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('hospitalId');
  });
});

describe('GET api/admin/files/failing', () => {
  beforeAll(() => loadStates(test.database.connection.pool));

  /** A hospital with these runs, given as status and days ago (started, and finished a minute on). */
  async function hospitalWithRuns(
    name: string,
    runs: [status: string, daysAgo: number, error?: string][],
    isDemo = false,
  ): Promise<string> {
    const pool = test.database.connection.pool;
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO hospitals (source_key, name, is_demo, state_code)
       VALUES (gen_random_uuid()::text, $1, $2, 'VT') RETURNING id`,
      [name, isDemo],
    );
    const id = rows[0]?.id ?? '';
    for (const [status, daysAgo, error] of runs)
      await pool.query(
        `INSERT INTO mrf_files (hospital_id, source, status, error, started_at, finished_at)
         VALUES ($1, 'https://failing.example/' || $2 || '.json', $3, $4,
                 now() - $5 * interval '1 day',
                 CASE WHEN $3 <> 'loading' THEN now() - $5 * interval '1 day' + interval '1 minute' END)`,
        [id, name.toLowerCase().replaceAll(' ', '-'), status, error ?? null, daysAgo],
      );
    return id;
  }
  const failing = (headers: Record<string, string>) =>
    test.app.inject({ method: 'GET', url: '/api/admin/files/failing', headers });

  it('lists the hospitals whose latest read failed, the longest failing first, with why', async () => {
    const gone = 'The server answered 404 Not Found for https://failing.example/a.json.';
    const moved = await hospitalWithRuns('Failing Moved Hospital', [
      ['loaded', 5],
      ['failed', 3, 'An older error.'],
      ['failed', 2, gone],
    ]);
    const never = await hospitalWithRuns('Failing Never Hospital', [
      ['failed', 4, 'The file has no content.'],
    ]);
    // Still failing though another read is under way.
    const retried = await hospitalWithRuns('Failing Retried Hospital', [
      ['loaded', 9],
      ['failed', 1, gone],
      ['loading', 0],
    ]);
    // Recovered: its latest read succeeded, or found the file unchanged.
    await hospitalWithRuns('Failing Recovered Hospital', [
      ['failed', 3, gone],
      ['loaded', 2],
    ]);
    await hospitalWithRuns('Failing Unchanged Hospital', [
      ['loaded', 3],
      ['failed', 2, gone],
      ['unchanged', 1],
    ]);
    // Demo hospitals are never read again.
    await hospitalWithRuns('Failing Demo Hospital', [['failed', 1, gone]], true);

    const admin = await signedInAdmin(test);
    const response = await failing(authHeaders(admin));
    expect(response.statusCode).toBe(200);
    const ours = response
      .json<FailingFile[]>()
      .filter((file) => file.facilityName.startsWith('Failing '));
    // An instant this many days (and minutes) ago, give or take the test's own minute.
    const day = (daysAgo: number, minutes = 0): string =>
      expect.toSatisfy((iso: string) => {
        const expected = Date.now() - daysAgo * 86_400_000 + minutes * 60_000;
        return Math.abs(Date.parse(iso) - expected) < 60_000;
      }) as string;
    expect(ours).toEqual([
      {
        hospitalID: never,
        facilityName: 'Failing Never Hospital',
        stateName: 'Vermont',
        source: 'failing-never-hospital.json',
        sourceUrl: 'https://failing.example/failing-never-hospital.json',
        error: 'The file has no content.',
        failingSince: day(4),
        lastTriedAt: day(4),
        failures: 1,
        inUseReadAt: null,
      },
      {
        hospitalID: moved,
        facilityName: 'Failing Moved Hospital',
        stateName: 'Vermont',
        source: 'failing-moved-hospital.json',
        sourceUrl: 'https://failing.example/failing-moved-hospital.json',
        error: gone,
        failingSince: day(3),
        lastTriedAt: day(2),
        failures: 2,
        inUseReadAt: day(5, 1),
      },
      {
        hospitalID: retried,
        facilityName: 'Failing Retried Hospital',
        stateName: 'Vermont',
        source: 'failing-retried-hospital.json',
        sourceUrl: 'https://failing.example/failing-retried-hospital.json',
        error: gone,
        failingSince: day(1),
        lastTriedAt: day(1),
        failures: 1,
        inUseReadAt: day(9, 1),
      },
    ]);
  });

  it('is for administrators only (401 signed out, 403 otherwise)', async () => {
    expect((await failing({})).statusCode).toBe(401);
    const user = await signedInUser(test.app);
    expect((await failing(authHeaders(user))).statusCode).toBe(403);
  });
});
