import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SEARCH_MESSAGES,
  type ApiError,
  type Result,
  SPEC_MESSAGES,
  type CodeOption,
  type Entitlement,
  type OopRateRow,
  type SummaryRow,
} from '@ratelens/core';
import { hospitalLocator, ingestFile, loadDemoData } from '@ratelens/ingest';
import { itWithDataFile } from '@ratelens/ingest/testing/it-with-data-file';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  authHeaders,
  confirmAddress,
  signedInAdmin,
  signedInUser,
  uniqueEmail,
  useTestApp,
  type TestApp,
} from '../test/app.ts';
import { whileHospitalsLocked } from '../test/locks.ts';
import { pagesOf } from '../test/pdf-text.ts';
import { RatesSearch } from './rates-search.ts';

const ANCHORAGE = {
  stateCode: 'AK',
  stateName: 'Alaska',
  msaID: '11260',
  msaName: 'Anchorage, AK',
};
const FAIRBANKS = { ...ANCHORAGE, msaID: '21820', msaName: 'Fairbanks-College, AK' };
const VINEYARD_HAVEN = {
  stateCode: 'MA',
  stateName: 'Massachusetts',
  msaID: '47240',
  msaName: 'Vineyard Haven, MA',
};
const VINEYARD_FILE =
  'mrf-real-csv-tall-marthas-vineyard/042104691_Marthas-Vineyard-Hospital_StandardCharges.csv';

function search(code: string, area = ANCHORAGE, paymentMethod = 'OUTPATIENT') {
  return { ...area, code, paymentMethod };
}

function custom(code: string, lives = 1, accumulator = 0, area = ANCHORAGE) {
  return { ...search(code, area), lives, accumulator };
}

type Login = Awaited<ReturnType<typeof signedInUser>>;

describe('OobRates calls', () => {
  const test = useTestApp();
  let demoDir: string;

  beforeAll(async () => {
    demoDir = await mkdtemp(path.join(tmpdir(), 'ratelens-demo-'));
    await loadDemoData(test.database.connection, demoDir);
  }, 120_000);

  afterAll(async () => {
    await rm(demoDir, { recursive: true, force: true });
  });

  const post = (t: TestApp, url: string, login: Login | null, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/OobRates/${url}`,
      headers: login ? authHeaders(login) : {},
      payload: payload as object,
    });
  const get = (
    t: TestApp,
    url: string,
    login: Login | null,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'GET',
      url: `/api/OobRates/${url}`,
      headers: { ...(login ? authHeaders(login) : {}), ...headers },
    });
  const entitlementOf = async (login: Login) =>
    (await get(test, 'getReportType', login)).json<Entitlement[]>()[0];
  const codeSearch = (login: Login, filter: object) =>
    get(
      test,
      `GetCodeDescriptionbyMSA?FilterJson=${encodeURIComponent(JSON.stringify(filter))}`,
      login,
    );

  it('lists the billing classes without a session', async () => {
    const response = await get(test, 'getoobratesSetting', null);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(['Inpatient', 'Outpatient', 'Drugs']);
  });

  it('answers 401 to every search call without a session', async () => {
    for (const [method, url] of [
      ['GET', 'getReportType'],
      ['GET', 'getoobratesStatewiseUserAccess'],
      ['POST', 'getoobrates'],
      ['POST', 'Getoobrateswithcustomvalue'],
      ['POST', 'getoobratesSummery'],
      ['GET', 'logIndvsubscount'],
      ['POST', 'sendPdftoUser'],
    ] as const) {
      const response = await test.app.inject({
        method,
        url: `/api/OobRates/${url}`,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('gives a new account two free searches, the states with data and no employer access', async () => {
    const login = await signedInUser(test.app);
    expect(await entitlementOf(login)).toMatchObject({
      searching_Status: 1,
      next_Search_Date: null,
      individualSubscription: false,
      reportType: 'individual',
      replace_Email: null,
      actual_Email: login.emailID,
      freeSearchesLeft: 2,
      subscriptionStatus: 'none',
    });
    const states = (await get(test, 'getoobratesStatewiseUserAccess', login)).json<
      Record<string, string>
    >();
    expect(states.AK).toBe('Alaska');
    const access = await post(test, 'getoobratesEmployersAccess', login, { accout: login.emailID });
    expect(access.json()).toEqual([{ API: 'no' }]);
  });

  it("refuses to answer for another account's e-mail or id", async () => {
    const login = await signedInUser(test.app);
    const other = uniqueEmail('other');
    expect(
      (await post(test, 'getoobratesEmployersAccess', login, { accout: other })).statusCode,
    ).toBe(403);
    expect((await get(test, `getReportType?email=${other}`, login)).statusCode).toBe(403);
    expect(
      (await get(test, 'getReportType?userId=00000000-0000-0000-0000-000000000000', login))
        .statusCode,
    ).toBe(403);
    // Its own id in capitals is no other account's (a UUID has no case).
    const own = await get(test, `getReportType?userId=${login.userID.toUpperCase()}`, login);
    expect(own.statusCode).toBe(200);
    const response = await post(test, 'Getoobrateswithcustomvalue', login, {
      ...custom('99213'),
      accout: other,
    });
    expect(response.statusCode).toBe(403);
    expect(
      (await get(test, `getoobratesStatewiseUserAccess?email=${other}`, login)).statusCode,
    ).toBe(403);
    // Nor a workbook or a texted report of a search as another account.
    const asOther = { ...custom('70551', 1, 0, FAIRBANKS), accout: other };
    const workbook = await get(
      test,
      `exportOobDatacustomvalue?oobinput=${encodeURIComponent(JSON.stringify(asOther))}`,
      login,
    );
    expect(workbook.statusCode).toBe(403);
    const texted = await post(test, 'sendPdftoUser', login, {
      number: '9075550142',
      search: { ...custom('99213'), accout: other },
    });
    expect(texted.statusCode).toBe(403);
    // Nor the summary of a search named as another account's, its own search run first.
    expect((await post(test, 'getoobrates', login, search('99213'))).statusCode).toBe(200);
    for (const asAnother of [
      { userId: '00000000-0000-0000-0000-000000000000' },
      { logged_useremail: other },
    ]) {
      const summary = await post(test, 'getoobratesSummery', login, {
        ...search('99213'),
        ...asAnother,
      });
      expect(summary.statusCode, JSON.stringify(asAnother)).toBe(403);
    }
    expect((await post(test, 'getoobratesSummery', login, search('99213'))).statusCode).toBe(200);
    expect((await entitlementOf(login))?.freeSearchesLeft).toBe(1);
  });

  it('finds codes of the metro area by code prefix and by description, and validates the filter', async () => {
    const login = await signedInUser(test.app);
    const byCode = (
      await codeSearch(login, { stateCode: 'AK', msaId: '11260', queryText: '9921' })
    ).json<CodeOption[]>();
    expect(byCode.map((o) => o.procedureCode)).toContain('99213');
    expect(byCode.every((o) => o.procedureCode.startsWith('9921'))).toBe(true);
    // Revenue codes have four digits; people type them as three (450 for the emergency room).
    const withoutZero = (
      await codeSearch(login, { stateCode: 'AK', msaId: '11260', queryText: '450' })
    ).json<CodeOption[]>();
    expect(withoutZero[0]).toMatchObject({ procedureCode: '0450', codeType: 'RC' });
    const byWords = (
      await codeSearch(login, {
        stateCode: 'ak',
        msaName: 'Anchorage, AK',
        queryText: 'mri of the brain',
      })
    ).json<CodeOption[]>();
    expect(byWords.map((o) => o.procedureCode)).toContain('70551');
    expect(
      (await codeSearch(login, { stateCode: 'AK', msaId: '11260', queryText: 'zzzzqq' })).json(),
    ).toEqual([]);
    // An area without hospitals finds nothing, and leaves nothing behind: any five digits may be
    // asked for, and each must not cost a row.
    const builds = async () =>
      (
        await test.database.connection.pool.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM area_code_builds`,
        )
      ).rows[0]?.count;
    const before = await builds();
    for (const msaId of ['00001', '00002', '99999'])
      expect(
        (await codeSearch(login, { stateCode: 'AK', msaId, queryText: '992' })).json(),
      ).toEqual([]);
    expect(await builds()).toBe(before);

    const short = await codeSearch(login, { stateCode: 'AK', msaId: '11260', queryText: '99' });
    expect(short.statusCode).toBe(400);
    expect(short.json<ApiError>().message).toContain('queryText must be at least 3 characters.');
    const badJson = await get(test, 'GetCodeDescriptionbyMSA?FilterJson=%7Bnot-json', login);
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json<ApiError>().message).toContain('FilterJson must be JSON');
    const wrongType = await codeSearch(login, { stateCode: 'AK', msaName: 7, queryText: '992' });
    expect(wrongType.json<ApiError>().errors).toEqual([
      {
        field: 'FilterJson.msaName',
        rule: 'invalid_type',
        message: 'FilterJson.msaName must be text.',
      },
    ]);
    const longName = await codeSearch(login, {
      stateCode: 'AK',
      msaName: 'A'.repeat(201),
      queryText: '992',
    });
    expect(longName.json<ApiError>().errors).toEqual([
      {
        field: 'FilterJson.msaName',
        rule: 'too_big',
        message: 'FilterJson.msaName must not be more than 200 characters.',
      },
    ]);
    const noArea = await codeSearch(login, { stateCode: 'AK', queryText: '992' });
    expect(noArea.statusCode).toBe(400);
    expect(noArea.json<ApiError>().message).toContain('msaId or msaName');
    const wildcard = (
      await codeSearch(login, { stateCode: 'AK', msaId: '11260', queryText: '%%%' })
    ).json<CodeOption[]>();
    expect(wildcard).toEqual([]);
  });

  it('compares every hospital of a CPT code, whether its file labelled it "CPT" or "HCPCS"', async () => {
    const { pool } = test.database.connection;
    // Demo Mat-Su Valley Hospital's file says HCPCS for 70450 (CT of the head), as AdventHealth's
    // does for its CPT codes; Demo Northern Lights Medical Center's says CPT.
    const relabel = async (type: string) => {
      await pool.query(
        `UPDATE item_codes ic SET code_type = $1 FROM hospitals h
          WHERE h.id = ic.hospital_id AND h.name = 'Demo Mat-Su Valley Hospital' AND ic.code = '70450'`,
        [type],
      );
      await pool.query(
        `UPDATE hospital_summaries hs SET updated_at = now() FROM hospitals h
          WHERE h.id = hs.hospital_id AND h.name = 'Demo Mat-Su Valley Hospital'`,
      );
    };
    await relabel('HCPCS');
    try {
      // A search service of its own: the app's may have checked Anchorage's code list just now.
      const options = await new RatesSearch(pool).codeOptions('AK', '11260', '70450');
      expect(options.filter((o) => o.procedureCode === '70450')).toEqual([
        expect.objectContaining({ procedureCode: '70450', codeType: 'CPT' }),
      ]);

      const login = await signedInUser(test.app);
      for (const codeType of ['CPT', 'HCPCS']) {
        const response = await post(test, 'getoobrates', login, {
          ...search('70450'),
          codeType,
        });
        expect(response.statusCode, codeType).toBe(200);
        const hospitals = new Set(response.json<OopRateRow[]>().map((r) => r.FacilityName));
        expect([...hospitals].sort(), codeType).toEqual([
          'Demo Mat-Su Valley Hospital',
          'Demo Northern Lights Medical Center',
        ]);
      }
    } finally {
      await relabel('CPT');
    }
  });

  it('gives each hospital one cash price, its lowest for the code, in every row and in the summary', async () => {
    const { pool } = test.database.connection;
    // As AdventHealth does for 99283: a second line of the code with a cash price and no payer
    // rates, cheaper than the cash price of the line that has them.
    const hospital = `(SELECT id FROM hospitals WHERE name = 'Demo Northern Lights Medical Center')`;
    await pool.query(
      `INSERT INTO charge_items (hospital_id, item_id, mrf_file_id, description, setting,
                                 billing_class, modifiers, discounted_cash)
       SELECT ci.hospital_id, 900001, ci.mrf_file_id, 'CT HEAD CASH LINE', ci.setting,
              ci.billing_class, '{}', 111.11
         FROM charge_items ci JOIN item_codes ic USING (hospital_id, item_id)
        WHERE ci.hospital_id = ${hospital} AND ic.code = '70450' AND ci.billing_class = 'outpatient'`,
    );
    await pool.query(
      `INSERT INTO item_codes (hospital_id, item_id, code_type, code, category)
       SELECT ${hospital}, 900001, 'CPT', '70450', 'Radiology'`,
    );
    try {
      const login = await signedInUser(test.app);
      const rows = (await post(test, 'getoobrates', login, search('70450'))).json<OopRateRow[]>();
      const summary = (await post(test, 'getoobratesSummery', login, search('70450'))).json<
        SummaryRow[]
      >();
      const northernLights = rows.filter(
        (r) => r.FacilityName === 'Demo Northern Lights Medical Center',
      );
      expect(northernLights.length).toBeGreaterThan(0);
      expect(new Set(northernLights.map((r) => r.cashRate))).toEqual(new Set([111.11]));
      for (const hospitalSummary of summary) {
        const cash = rows
          .filter((r) => r.FacilityName === hospitalSummary.FacilityName)
          .map((r) => r.cashRate);
        expect(new Set(cash), hospitalSummary.FacilityName).toEqual(
          new Set([hospitalSummary.CASH_RATE]),
        );
      }
    } finally {
      await pool.query(`DELETE FROM item_codes WHERE item_id = 900001`);
      await pool.query(`DELETE FROM charge_items WHERE item_id = 900001`);
    }
  });

  itWithDataFile(
    "finds Martha's Vineyard's lines for both settings as inpatient, its J codes as drugs, and its operation's cash price",
    VINEYARD_FILE,
    async (file) => {
      const { connection } = test.database;
      const loaded = await ingestFile(connection, file, {
        locate: hospitalLocator(connection.pool),
      });
      expect(loaded).toMatchObject({ status: 'loaded' });
      const vineyard = "Martha's Vineyard Hospital";
      const searched = async (code: string, paymentMethod: string) => {
        const login = await signedInUser(test.app);
        const filter = search(code, VINEYARD_HAVEN, paymentMethod);
        const response = await post(test, 'getoobrates', login, filter);
        expect(response.statusCode).toBe(200);
        const summary = await post(test, 'getoobratesSummery', login, filter);
        return {
          // The demo's Island Community Hospital is in the same area.
          rows: response.json<OopRateRow[]>().filter((row) => row.FacilityName === vineyard),
          summary: summary.json<SummaryRow[]>().find((row) => row.FacilityName === vineyard),
        };
      };
      const amounts = async (code: string, paymentMethod: string) =>
        (await searched(code, paymentMethod)).rows.map((row) => row.rates);
      // 99221 (file rows 37-42 and 4554-4571): 16 rates for both settings, 4 inpatient, 4
      // outpatient. The 16 were found as outpatient only.
      const inpatient = await amounts('99221', 'INPATIENT');
      expect(inpatient).toHaveLength(20);
      expect(inpatient).toEqual(expect.arrayContaining([223.78, 401.69, 176.09, 155.7]));
      expect(inpatient).not.toContain(182.54);
      expect(await amounts('99221', 'OUTPATIENT')).toHaveLength(20);
      // Row 41: Blue Cross PPO's $176.09 on a line whose cash price is $194.25. The hospital's
      // lowest, $171.75, is another line's (rows 4560-4565): cash is not cheaper for this rate.
      const visit = (await searched('99221', 'INPATIENT')).rows.find((row) => row.rates === 176.09);
      expect(visit).toMatchObject({
        planname: 'HB MVH BLUE CROSS PPO',
        MemberOOP: 176.09,
        cashRate: 171.75,
        lineCashRate: 194.25,
        cashIsCheaper: false,
      });
      // C1776, joint implants: 59 lines, cash prices from $112.50 to $6,237.00. A knee component
      // (rows 4984-4986) is not $112.50 cash.
      const implants = (await searched('C1776', 'OUTPATIENT')).rows;
      expect(implants.find((row) => row.rates === 3083.5)).toMatchObject({
        cashRate: 112.5,
        lineCashRate: 3281.25,
        cashIsCheaper: false,
      });
      // J7298, a drug billed with its HCPCS code and revenue code 0636 (rows 2524-2527), was
      // found as outpatient only: the Drugs class found nothing in the file.
      expect(await amounts('J7298', 'DRUGS')).toEqual([2716.87, 2294.18, 2125.11, 2023.08]);
      expect(await amounts('J7298', 'OUTPATIENT')).toHaveLength(4);
      // A procedure is not a drug.
      expect(await amounts('99221', 'DRUGS')).toEqual([]);
      // 47562 (rows 5086-5094): the operation's cash price is $2,061.00; its assistant surgeon's
      // lines (modifiers AS, 80) have $515.25, which was given as the hospital's cash price.
      const operation = await searched('47562', 'OUTPATIENT');
      expect(operation.rows.map((row) => row.rates)).toEqual([
        2162.68, 1936.79, 1936.79, 1907.11, 540.67, 484.2, 484.2,
      ]);
      expect(operation.rows.map((row) => row.modifiers)).toEqual([
        [],
        [],
        [],
        [],
        ['AS'],
        ['AS'],
        ['80'],
      ]);
      expect(new Set(operation.rows.map((row) => row.cashRate))).toEqual(new Set([2061]));
      expect(operation.summary?.CASH_RATE).toBe(2061);
      // The summary and the chart describe the operation, not its assistant surgeon's fees.
      expect(operation.summary).toMatchObject({
        LowAmt: 1907.11,
        AvgAmt: 1985.84,
        HighAmt: 2162.68,
        rateCount: 4,
      });
      const { rows } = await connection.pool.query<{ has_drugs: boolean }>(
        'SELECT has_drugs FROM hospital_summaries WHERE hospital_id = $1',
        [loaded.hospitalId],
      );
      expect(rows[0]?.has_drugs).toBe(true);
    },
  );

  it('answers a custom search with rates, out-of-pocket and how each rate was published', async () => {
    const login = await signedInUser(test.app);
    const response = await post(test, 'Getoobrateswithcustomvalue', login, custom('99213', 2, 500));
    expect(response.statusCode).toBe(200);
    const rows = response.json<OopRateRow[]>();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.rates)).toEqual([...rows.map((r) => r.rates)].sort((a, b) => b - a));
    for (const row of rows) {
      expect(row).toMatchObject({
        medicalcode: '99213',
        Statename: 'Alaska',
        msaname: 'Anchorage, AK',
      });
      expect(row.FacilityName).toMatch(/^Demo /);
      if (row.LOB === 'commercial' || row.LOB === 'exchange') {
        // Family deductible $3,400, $500 spent: a visit below the $2,900 left is paid in full.
        expect(row.MemberOOP).toBe(Math.min(row.rates, 2900));
      } else {
        // Medicare Advantage, Medicaid and other public plans set their own cost sharing.
        expect(row, `${row.payername} ${row.planname}`).toMatchObject({
          MemberOOP: null,
          cashIsCheaper: false,
        });
      }
      expect(row.rateOrigin === 'dollar').toBe(row.rateDerivation === null);
    }
    const lines = new Set(rows.map((r) => r.LOB));
    expect([...lines].sort()).toEqual(['commercial', 'medicare-advantage', 'other']);
    // The state paying the hospital directly is not managed care.
    expect(
      rows.filter((r) => r.payername === 'Alaska Medicaid').map((r) => [r.planname, r.LOB]),
    ).toContainEqual(['Fee for Service', 'other']);
    expect((await entitlementOf(login))?.freeSearchesLeft).toBe(1);
  });

  it("carries each hospital's type and system, as the demo data or an admin set them", async () => {
    const pool = test.database.connection.pool;
    const { rows } = await pool.query<{ id: string; name: string }>(
      `SELECT id, name FROM hospitals WHERE name = 'Demo Mat-Su Valley Hospital'`,
    );
    const matSu = rows[0];
    const admin = await signedInAdmin(test);
    const classified = await test.app.inject({
      method: 'PUT',
      url: `/api/admin/hospitals/${matSu?.id}/classification`,
      headers: authHeaders(admin),
      payload: { hospitalType: 'Rural Emergency Hospitals', healthsystemType: '  ' },
    });
    expect(classified.json()).toEqual({
      hospitalType: 'Rural Emergency Hospitals',
      healthsystemType: null,
    });
    const login = await signedInUser(test.app);
    const found = (await post(test, 'getoobrates', login, search('99213'))).json<OopRateRow[]>();
    const labels = new Set(
      found.map((row) => `${row.FacilityName}|${row.HospitalType}|${row.healthsystemType}`),
    );
    expect([...labels].sort()).toEqual([
      'Demo Mat-Su Valley Hospital|Rural Emergency Hospitals|null',
      'Demo Northern Lights Medical Center|Acute Care Hospitals|Part of a health system',
    ]);
  });

  it('counts a search only when its inputs change, and refuses the third with the spec message', async () => {
    const login = await signedInUser(test.app);
    expect(
      (await post(test, 'Getoobrateswithcustomvalue', login, custom('99213'))).statusCode,
    ).toBe(200);
    // Re-running the same search (the results page does on entry) is free.
    expect(
      (await post(test, 'Getoobrateswithcustomvalue', login, custom('99213', 2, 100))).statusCode,
    ).toBe(200);
    expect((await entitlementOf(login))?.freeSearchesLeft).toBe(1);
    expect(
      (await post(test, 'Getoobrateswithcustomvalue', login, custom('70551'))).statusCode,
    ).toBe(200);
    const entitlement = await entitlementOf(login);
    expect(entitlement).toMatchObject({ searching_Status: 0, freeSearchesLeft: 0 });
    expect(new Date(entitlement?.next_Search_Date ?? 0).getTime()).toBeGreaterThan(
      Date.now() + 59 * 86_400_000,
    );

    const third = await post(test, 'Getoobrateswithcustomvalue', login, custom('80053'));
    expect(third.statusCode).toBe(403);
    expect(third.json<ApiError>().message).toBe(SEARCH_MESSAGES.freeSearchesOver);
    const standard = await post(test, 'getoobrates', login, search('80053'));
    expect(standard.statusCode).toBe(403);
    expect(standard.json<ApiError>().message).toMatch(
      /^Your next eligible search begins on [A-Z][a-z]+ \d{1,2}, \d{4}$/,
    );
    const download = await get(
      test,
      `exportOobData?oobinput=${encodeURIComponent(JSON.stringify(search('80053')))}`,
      login,
    );
    expect(download.statusCode).toBe(403);
    // The latest search still re-runs.
    expect(
      (await post(test, 'Getoobrateswithcustomvalue', login, custom('70551'))).statusCode,
    ).toBe(200);
  });

  it('lets only one of two concurrent new searches take the last free search', async () => {
    const login = await signedInUser(test.app);
    await post(test, 'Getoobrateswithcustomvalue', login, custom('99213'));
    const [a, b] = await Promise.all([
      post(test, 'Getoobrateswithcustomvalue', login, custom('70551')),
      post(test, 'Getoobrateswithcustomvalue', login, custom('80053')),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 403]);
  });

  it('ends an export its reader stopped reading, and closes the connection of one left early', async () => {
    const { pool } = test.database.connection;
    const search = new RatesSearch(pool, 300);
    const patient = new RatesSearch(pool, 60_000);
    const query = {
      stateCode: 'AK',
      msaId: '11260',
      code: '70450',
      paymentMethod: 'OUTPATIENT',
      familyStatus: 1 as const,
      ytdSpend: 0,
    };
    const openTransactions = async () => {
      const { rows } = await pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      );
      return rows[0]?.count;
    };
    try {
      // A batch a row: the second row is asked for after the idle limit.
      const rows = search.streamRates(query, 1);
      expect((await rows.next()).done).toBe(false);
      expect(await openTransactions()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // PostgreSQL closed the connection: "Client has encountered a connection error and is not
      // queryable".
      await expect(rows.next()).rejects.toThrow(/connection error/);
      // A closed connection's backend leaves pg_stat_activity as it exits, a moment later on a
      // busy machine: asked until then, not once.
      await expect.poll(openTransactions, { timeout: 5_000 }).toBe(0);

      // Left after its first row: its connection is not given back inside the transaction. With
      // a minute's idle limit, neither PostgreSQL nor the pool (10 s) would end one so given back
      // before the poll gives up.
      for await (const row of patient.streamRates(query, 1)) {
        expect(row.medicalcode).toBe('70450');
        break;
      }
      await expect.poll(openTransactions, { timeout: 5_000 }).toBe(0);

      const all: unknown[] = [];
      for await (const row of search.streamRates(query)) all.push(row);
      expect(all.length).toBeGreaterThan(1);
    } finally {
      await search.close();
      await patient.close();
    }
  });

  it('summarises the latest search per hospital, and only that one', async () => {
    const login = await signedInUser(test.app);
    const before = await post(test, 'getoobratesSummery', login, search('99213'));
    expect(before.statusCode).toBe(403);
    await post(test, 'Getoobrateswithcustomvalue', login, custom('99213'));
    const response = await post(test, 'getoobratesSummery', login, search('99213'));
    expect(response.statusCode).toBe(200);
    const rows = response.json<SummaryRow[]>();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.LowAmt ?? 0).toBeLessThanOrEqual(row.AvgAmt ?? 0);
      expect(row.AvgAmt ?? 0).toBeLessThanOrEqual(row.HighAmt ?? 0);
    }
  });

  it("takes the state by its name alone, as the spec's summary and export send it", async () => {
    const login = await signedInUser(test.app);
    expect((await post(test, 'getoobrates', login, search('99213'))).statusCode).toBe(200);
    // The spec's fields: code, accout, stateName, msaID, msaName, paymentMethod (no stateCode).
    const byName: Record<string, unknown> = search('99213');
    delete byName.stateCode;
    const summary = await post(test, 'getoobratesSummery', login, {
      ...byName,
      accout: login.emailID,
    });
    expect(summary.statusCode, summary.body).toBe(200);
    const withCode = await post(test, 'getoobratesSummery', login, search('99213'));
    expect(summary.json<SummaryRow[]>()).toEqual(withCode.json<SummaryRow[]>());
    expect(summary.json<SummaryRow[]>().length).toBeGreaterThan(0);
    const workbook = await get(
      test,
      `exportOobData?oobinput=${encodeURIComponent(JSON.stringify({ ...byName, userId: login.userID }))}`,
      login,
    );
    expect(workbook.statusCode, workbook.body.slice(0, 200)).toBe(200);
    expect(workbook.headers['content-disposition']).toContain('.xlsx');
    // Neither: the code is what is missing.
    const neither = { ...byName };
    delete neither.stateName;
    const refused = await post(test, 'getoobratesSummery', login, neither);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiError>().errors).toEqual([
      { field: 'stateCode', rule: 'required', message: 'stateCode is required.' },
    ]);
  });

  it('validates search input field by field', async () => {
    const login = await signedInUser(test.app);
    const cases: [object, string][] = [
      [
        { ...custom('99213'), paymentMethod: 'LUXURY' },
        'paymentMethod must be one of Inpatient, Outpatient, Drugs.',
      ],
      [{ ...custom('99213'), stateCode: 'Alaska' }, 'stateCode must be a two-letter state code'],
      [{ ...custom('99213'), stateCode: 'zz' }, 'ZZ is not a state we know.'],
      [{ ...custom('99213'), lives: 3 }, 'lives must be 1 (Single) or 2 (Family).'],
      [{ ...custom('99213'), accumulator: '12a' }, 'accumulator must be digits only'],
      [{ ...custom('99213'), accumulator: '1200.50' }, 'accumulator must be digits only'],
      [{ ...custom('99213'), accumulator: 1200.5 }, 'accumulator must be digits only'],
      [{ ...custom('99213'), code: "99213'; drop table" }, 'code must be a medical code'],
      [{ ...custom('99213'), code: undefined }, 'code is required.'],
      [{ ...custom('99213'), msaID: 'abc' }, 'msaID must be a metro area id of five digits'],
      [
        { ...custom('99213'), stateCode: undefined, stateName: undefined },
        'stateCode is required.',
      ],
      [
        { ...custom('99213'), stateCode: undefined, stateName: 'Atlantis' },
        'Atlantis is not a state we know.',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await post(test, 'Getoobrateswithcustomvalue', login, body);
      expect(response.statusCode, message).toBe(400);
      expect(response.json<ApiError>().message).toContain(message);
    }
    expect((await entitlementOf(login))?.freeSearchesLeft).toBe(2);
  });

  it('gives employer members with a confirmed address the employer report, unlimited searches and their employer as replace_Email', async () => {
    const admin = await signedInAdmin(test);
    const member = await signedInUser(test.app);
    const employer = uniqueEmail('employer');
    const created = await test.app.inject({
      method: 'POST',
      url: '/api/admin/organisations',
      headers: authHeaders(admin),
      payload: {
        name: 'Acme Benefits',
        accountEmail: employer,
        employerOcr: true,
        ocrAccess: true,
        memberEmails: [member.emailID],
      },
    });
    expect(created.statusCode).toBe(200);
    // An address is the employer's member's only once its owner has shown it is theirs: anyone
    // can sign up with an address an admin listed.
    expect((await entitlementOf(member))?.reportType).not.toBe('employer');
    expect(
      (await post(test, 'getoobratesEmployersAccess', member, { accout: employer })).statusCode,
    ).toBe(403);
    await confirmAddress(test, member.emailID);
    expect(await entitlementOf(member)).toMatchObject({
      reportType: 'employer',
      replace_Email: employer,
      employer_OCR: true,
      oCR_Access: true,
      searching_Status: 1,
    });
    expect(
      (await post(test, 'getoobratesEmployersAccess', member, { accout: employer })).json(),
    ).toEqual([{ API: 'yes' }]);
    for (const code of ['99213', '70551', '80053', '99214'])
      expect(
        (await post(test, 'getoobrates', member, { ...search(code), accout: employer })).statusCode,
      ).toBe(200);
    // Employers' reports keep the hospitals' notes; the summary is open for any search.
    expect((await post(test, 'getoobratesSummery', member, search('70551'))).statusCode).toBe(200);
  });

  it('answers 409, not 500, to an organisation whose e-mail another admin took while it was written', async () => {
    const admin = await signedInAdmin(test);
    const { pool } = test.database.connection;
    const create = (accountEmail: string, memberEmails: string[]) =>
      test.app.inject({
        method: 'POST',
        url: '/api/admin/organisations',
        headers: authHeaders(admin),
        payload: { name: 'Race Benefits', accountEmail, memberEmails },
      });
    // The other admin's insert is written but not committed: the call's check sees the e-mail
    // free, its own insert waits on the unique index, then meets the committed row.
    for (const [table, taken] of [
      ['organisations', 'account'],
      ['organisation_members', 'member'],
    ] as const) {
      const email = uniqueEmail(`race-${taken}`);
      const other = await pool.connect();
      try {
        await other.query('BEGIN');
        const { rows } = await other.query<{ id: string }>(
          `INSERT INTO organisations (name, account_email) VALUES ('Other', $1) RETURNING id`,
          [table === 'organisations' ? email : uniqueEmail('other')],
        );
        if (table === 'organisation_members')
          await other.query(
            `INSERT INTO organisation_members (organisation_id, email) VALUES ($1, $2)`,
            [rows[0]?.id, email],
          );
        const pending =
          table === 'organisations' ? create(email, []) : create(uniqueEmail('acct'), [email]);
        // Until the call is waiting on the other transaction's row.
        for (let wait = 0; wait < 100; wait++) {
          const { rows: waiting } = await pool.query(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
          );
          if (waiting.length > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await other.query('COMMIT');
        const answer = await pending;
        expect(answer.statusCode, answer.body).toBe(409);
        expect(answer.json<ApiError>().message).toBe(
          table === 'organisations'
            ? `${email} is already the account of an organisation.`
            : 'A member e-mail was just added to another organisation: try again.',
        );
      } finally {
        other.release();
      }
    }
  });

  it('lets only admins create, change or remove organisations, and answers 404 and 409 for the rest', async () => {
    const user = await signedInUser(test.app);
    const admin = await signedInAdmin(test);
    const call = (login: Login, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      test.app.inject({ method, url, headers: authHeaders(login), payload });
    const organisation = (accountEmail: string) => ({
      name: 'Guarded Benefits',
      accountEmail,
      memberEmails: [],
    });
    const first = uniqueEmail('guarded');
    const created = await call(admin, 'POST', '/api/admin/organisations', organisation(first));
    expect(created.statusCode).toBe(200);
    const id = created.json<{ id: string }>().id;
    const url = `/api/admin/organisations/${id}`;
    // A signed-in user who is not an admin changes nothing.
    for (const [method, target, payload] of [
      ['POST', '/api/admin/organisations', organisation(uniqueEmail('user'))],
      ['PUT', url, organisation(uniqueEmail('user'))],
      ['DELETE', url, undefined],
    ] as const) {
      const refused = await call(user, method, target, payload);
      expect(refused.statusCode, `${method} ${target}`).toBe(403);
      expect(refused.json<ApiError>().message).toBe(
        'Only administrators can manage organisations.',
      );
    }
    expect((await call(admin, 'PUT', url, organisation(first))).json<{ name: string }>().name).toBe(
      'Guarded Benefits',
    );
    // Another organisation's account e-mail is taken.
    const second = uniqueEmail('second');
    expect(
      (await call(admin, 'POST', '/api/admin/organisations', organisation(second))).statusCode,
    ).toBe(200);
    const taken = await call(admin, 'PUT', url, organisation(second));
    expect(taken.statusCode).toBe(409);
    expect(taken.json<ApiError>().message).toBe(
      `${second} is already the account of an organisation.`,
    );
    // An address is one organisation's account or member, never both across two organisations.
    const member = uniqueEmail('member');
    const third = await call(admin, 'POST', '/api/admin/organisations', {
      ...organisation(uniqueEmail('third')),
      memberEmails: [member],
    });
    expect(third.statusCode).toBe(200);
    for (const [method, target, payload, message] of [
      [
        'POST',
        '/api/admin/organisations',
        organisation(member),
        `${member} is already a member of another organisation.`,
      ],
      ['PUT', url, organisation(member), `${member} is already a member of another organisation.`],
      [
        'POST',
        '/api/admin/organisations',
        { ...organisation(uniqueEmail('fourth')), memberEmails: [second] },
        `${second} is already the account of an organisation.`,
      ],
      [
        'PUT',
        url,
        { ...organisation(first), memberEmails: [second] },
        `${second} is already the account of an organisation.`,
      ],
    ] as const) {
      const refused = await call(admin, method, target, payload);
      expect(refused.statusCode, `${method} ${JSON.stringify(payload)}`).toBe(409);
      expect(refused.json<ApiError>().message).toBe(message);
    }
    // Its own account and members stay its own to write again.
    const again = await call(
      admin,
      'PUT',
      `/api/admin/organisations/${third.json<{ id: string }>().id}`,
      {
        ...organisation(third.json<{ accountEmail: string }>().accountEmail),
        memberEmails: [member],
      },
    );
    expect(again.statusCode).toBe(200);
    // Gone: changing or removing it again names no organisation.
    expect((await call(admin, 'DELETE', url)).statusCode).toBe(204);
    for (const [method, payload] of [
      ['PUT', organisation(first)],
      ['DELETE', undefined],
    ] as const) {
      const missing = await call(admin, method, url, payload);
      expect(missing.statusCode, method).toBe(404);
      expect(missing.json<ApiError>().message).toBe('No such organisation.');
    }
  });

  it('keeps the organisation calls to admins and checks their input', async () => {
    const user = await signedInUser(test.app);
    const admin = await signedInAdmin(test);
    const asUser = await test.app.inject({
      method: 'GET',
      url: '/api/admin/organisations',
      headers: authHeaders(user),
    });
    expect(asUser.statusCode).toBe(403);
    const bad = await test.app.inject({
      method: 'POST',
      url: '/api/admin/organisations',
      headers: authHeaders(admin),
      payload: { name: '', accountEmail: 'not-an-email', memberEmails: ['x'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ApiError>().errors?.map((e) => e.field)).toEqual(
      expect.arrayContaining(['name', 'accountEmail']),
    );
    const putPlanDesign = (login: Login, payload: object) =>
      test.app.inject({
        method: 'PUT',
        url: '/api/admin/plan-design',
        headers: authHeaders(login),
        payload,
      });
    const plan = await putPlanDesign(user, {
      deductible: { single: 0, family: 0 },
      outOfPocketMax: { single: 1, family: 1 },
      coinsurance: 0,
    });
    expect(plan.statusCode).toBe(403);
    // An admin's design keeps its figures in order: nobody's maximum below their deductible.
    const inconsistent = await putPlanDesign(admin, {
      deductible: { single: 50_000, family: 100 },
      outOfPocketMax: { single: 10, family: 5 },
      coinsurance: 1,
    });
    expect(inconsistent.statusCode).toBe(400);
    expect(inconsistent.json<ApiError>().errors).toEqual([
      {
        field: 'deductible.family',
        rule: 'custom',
        message: 'The family deductible must not be less than the single deductible.',
      },
      {
        field: 'outOfPocketMax.single',
        rule: 'custom',
        message: 'The single out-of-pocket maximum must not be less than the single deductible.',
      },
      {
        field: 'outOfPocketMax.family',
        rule: 'custom',
        message: 'The family out-of-pocket maximum must not be less than the family deductible.',
      },
    ]);
  });

  it("counts an individual subscription's searches down and reports its count", async () => {
    const login = await signedInUser(test.app);
    const none = await get(test, 'logIndvsubscount', login);
    expect(none.statusCode).toBe(403);
    expect(none.json<ApiError>().message).toBe(SPEC_MESSAGES.noSubscription);
    await test.database.connection.pool.query(
      `INSERT INTO subscriptions (user_id, kind, subscription_type, total_search_count, remaining_search_count, expires_at)
       VALUES ($1, 'individual-search', 'Individual Search 5', 5, 2, now() + interval '30 days')`,
      [login.userID],
    );
    expect(await entitlementOf(login)).toMatchObject({
      individualSubscription: true,
      individualSubscriptionCount: 2,
    });
    const download = await get(
      test,
      `exportOobData?oobinput=${encodeURIComponent(JSON.stringify(search('99213')))}`,
      login,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('spreadsheetml');
    expect(download.headers['content-disposition']).toContain('Alaska.xlsx');
    expect(download.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const count = (await get(test, 'logIndvsubscount', login, { userId: login.userID })).json<{
      remaningSearchCount: number;
    }>();
    expect(count.remaningSearchCount).toBe(1);
    // Free searches are untouched while the subscription pays.
    expect((await entitlementOf(login))?.freeSearchesLeft).toBe(2);
  });

  it('gives back a search that found no rate, free or from a subscription', async () => {
    const login = await signedInUser(test.app);
    // 70551 (MRI of the brain) is priced for outpatients in Anchorage, not as a drug.
    const empty = { ...search('70551'), paymentMethod: 'Drugs' };
    const nothing = await post(test, 'getoobrates', login, empty);
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json()).toEqual([]);
    expect((await entitlementOf(login))?.freeSearchesLeft).toBe(2);
    // Still the latest search: its summary may be read, and running it again is a re-run.
    expect((await post(test, 'getoobratesSummery', login, empty)).statusCode).toBe(200);

    await test.database.connection.pool.query(
      `INSERT INTO subscriptions (user_id, kind, subscription_type, total_search_count, remaining_search_count, expires_at)
       VALUES ($1, 'individual-search', 'Individual Search 5', 5, 2, now() + interval '30 days')`,
      [login.userID],
    );
    const nothingCustom = await post(test, 'Getoobrateswithcustomvalue', login, {
      ...custom('70553'),
      paymentMethod: 'Drugs',
    });
    expect(nothingCustom.json()).toEqual([]);
    expect(await entitlementOf(login)).toMatchObject({
      individualSubscriptionCount: 2,
      freeSearchesLeft: 2,
    });
    // A search with rates is paid for as before.
    expect((await post(test, 'getoobrates', login, search('70551'))).json<unknown[]>().length).toBe(
      17,
    );
    expect(await entitlementOf(login)).toMatchObject({ individualSubscriptionCount: 1 });
  });

  it('names the 24-hour grace of a lapsed subscription when the free searches are spent', async () => {
    const login = await signedInUser(test.app);
    await test.database.connection.pool.query(
      `INSERT INTO subscriptions (user_id, kind, subscription_type, total_search_count, remaining_search_count, starts_at, expires_at)
       VALUES ($1, 'individual-search', 'Individual Search 5', 5, 3, now() - interval '30 days', now() - interval '2 hours')`,
      [login.userID],
    );
    await post(test, 'Getoobrateswithcustomvalue', login, custom('99213'));
    await post(test, 'Getoobrateswithcustomvalue', login, custom('70551'));
    const refused = await post(test, 'Getoobrateswithcustomvalue', login, custom('80053'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ApiError>().message).toBe(SEARCH_MESSAGES.subscriptionExpired(3));
    expect(await entitlementOf(login)).toMatchObject({
      subscriptionStatus: 'expired',
      carryForwardSearches: 3,
      individualSubscriptionCount: 0,
    });
  });

  it('names a place as the database does: a CBSA by its title, a non-metro area by its own state', async () => {
    const search = new RatesSearch(test.database.connection.pool);
    try {
      expect(await search.placeNames({ stateCode: 'AK', msaId: '11260' })).toEqual({
        stateName: 'Alaska',
        msaName: 'Anchorage, AK',
      });
      expect(await search.placeNames({ stateCode: 'MA', msaId: '99002' })).toEqual({
        stateName: 'Massachusetts',
        msaName: 'Alaska non-metropolitan area',
      });
      expect(await search.placeNames({ stateCode: 'AK', msaId: '99999' })).toEqual({
        stateName: 'Alaska',
        msaName: null,
      });
      expect(await search.placeNames({ stateCode: 'AK', msaId: '12345' })).toEqual({
        stateName: 'Alaska',
        msaName: null,
      });
    } finally {
      await search.close();
    }
  });

  it('exports a custom search as a workbook named after the state, as the database names it', async () => {
    const login = await signedInUser(test.app);
    // The client's names of the place are its words: a lone surrogate (which made the file's
    // name throw), a message of its own. The workbook is named from the codes it searched.
    const input = {
      ...custom('70551', 1, 0, FAIRBANKS),
      stateName: '\ud800',
      msaName: 'Your claim was DENIED',
    };
    const response = await get(
      test,
      `exportOobDatacustomvalue?oobinput=${encodeURIComponent(JSON.stringify(input))}`,
      login,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('filename="Alaska.xlsx"');
    expect(response.rawPayload.length).toBeGreaterThan(1000);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.title).toBe('Negotiated rates for code 70551 in Fairbanks-College, AK');
    const bad = await get(test, 'exportOobDatacustomvalue?oobinput=%7B', login);
    expect(bad.statusCode).toBe(400);
  });

  it("writes two of a user's exports at once, and refuses a third until one is done", async () => {
    const login = await signedInUser(test.app);
    const other = await signedInUser(test.app);
    const input = encodeURIComponent(JSON.stringify(custom('70551', 1, 0, FAIRBANKS)));
    const exportOf = (who: Login) => get(test, `exportOobDatacustomvalue?oobinput=${input}`, who);
    const answers = await whileHospitalsLocked(
      test.database.connection.pool,
      3,
      () => [exportOf(login), exportOf(login), exportOf(other)],
      async () => {
        const third = await exportOf(login);
        expect(third.statusCode).toBe(429);
        expect(third.json<ApiError>().message).toBe(
          '2 of your exports are still being written: wait for one to finish, then try again.',
        );
      },
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect((await exportOf(login)).statusCode).toBe(200);
  });

  it('gives an export its place back when its client leaves, before or while it is written', async () => {
    const login = await signedInUser(test.app);
    const input = encodeURIComponent(JSON.stringify(custom('70551', 1, 0, FAIRBANKS)));
    const path = `/api/OobRates/exportOobDatacustomvalue?oobinput=${input}`;
    const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    // Each client asks and hangs up at once: mostly while its session is looked up, before the
    // export has begun; one leaves after the first bytes.
    for (let i = 0; i < 4; i += 1) {
      const socket = connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      const headers = Object.entries(authHeaders(login)).map(
        ([name, value]) => `${name}: ${value}`,
      );
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers.join('\r\n')}\r\n\r\n`);
      if (i === 3) await once(socket, 'data');
      socket.destroy();
    }
    await vi.waitFor(
      async () =>
        expect((await get(test, path.replace('/api/OobRates/', ''), login)).statusCode).toBe(200),
      { timeout: 10_000, interval: 200 },
    );
  });

  it("runs three of a user's searches and summaries at once, and refuses a fourth until one is done", async () => {
    const login = await signedInAdmin(test);
    const input = custom('70551', 1, 0, FAIRBANKS);
    const answers = await whileHospitalsLocked(
      test.database.connection.pool,
      3,
      () => [
        post(test, 'getoobrates', login, input),
        post(test, 'Getoobrateswithcustomvalue', login, input),
        post(test, 'getoobrates', login, input),
      ],
      async () => {
        const fourth = await post(test, 'getoobratesSummery', login, input);
        expect(fourth.statusCode).toBe(429);
        expect(fourth.json<ApiError>().message).toBe(
          '3 of your searches are still running: wait for one to finish, then try again.',
        );
      },
    );
    expect(answers.map((r) => r.statusCode)).not.toContain(429);
    expect((await post(test, 'getoobratesSummery', login, input)).statusCode).toBe(200);
  });

  it('texts a link to a PDF of the search, through the outbox', async () => {
    const login = await signedInUser(test.app);
    const invalid = await post(test, 'sendPdftoUser', login, {
      number: '555-123',
      search: custom('99213'),
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<ApiError>().message).toContain(SEARCH_MESSAGES.invalidNumber);
    // The spec's client sent the figures it had drawn; the server asks for the search (ADR 0016).
    const figures = await post(test, 'sendPdftoUser', login, {
      number: '9075550142',
      OOPData: [{ rates: 1 }],
      OOPSummeryData: [],
    });
    expect(figures.statusCode).toBe(400);
    expect(figures.json<ApiError>().errors).toEqual([
      expect.objectContaining({ field: 'search', message: 'search is required.' }),
    ]);

    // Typed with its country code and punctuation: the server reads the same 10 digits.
    const sent = await post(test, 'sendPdftoUser', login, {
      number: '1 (907) 555-0142',
      search: { ...custom('99213'), msaName: 'Call 1-888-555-0100', stateName: 'Nowhere' },
      userId: login.userID,
      report_Type: 'individual',
      pdfHeader: 'Your claim was DENIED. Call 1-888-555-0100 today',
      pdfFooter: 'Pay the balance at pay.example.com',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json<Result>().isSuccess).toBe(true);
    const outbox = await test.app.inject({
      method: 'GET',
      url: '/dev/outbox.json?to=%2B19075550142',
    });
    const [sms] = outbox.json<{ channel: string; text: string }[]>();
    expect(sms?.channel).toBe('sms');
    // The confirmation names the number as people write it and the day as the message does.
    const expires = /\(link expires (\w+ \d{1,2}, \d{4})\)/.exec(sms?.text ?? '')?.[1];
    expect(expires).toBeDefined();
    expect(sent.json<Result>().message).toBe(
      `Your report was sent by text message to +1 (907) 555-0142. The link works until ${expires}.`,
    );
    const link = /https?:\/\/\S+\/api\/reports\/[\w-]+/.exec(sms?.text ?? '')?.[0];
    expect(link).toBeDefined();
    const pdf = await test.app.inject({ method: 'GET', url: new URL(link ?? '').pathname });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The client's header and footer are not printed under RateLens's name (ADR 0016).
    const [page] = await pagesOf(pdf.rawPayload);
    expect(page).toContain('RateLens: code 99213 in Anchorage, AK');
    expect(page).not.toContain('1-888-555-0100');
    expect(page).toContain(SEARCH_MESSAGES.footerNotice);
    expect(page).not.toContain('DENIED');
    expect(page).not.toContain('pay.example.com');
    const guessed = await test.app.inject({
      method: 'GET',
      url: '/api/reports/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(guessed.statusCode).toBe(404);
  });

  it('texts one account at most TEXT_REPORTS_PER_USER_PER_DAY reports a day, from any address', async () => {
    const login = await signedInUser(test.app);
    const { pool } = test.database.connection;
    // 20 reports made for the account within the day (the default limit), the first 23 hours ago.
    await pool.query(
      `INSERT INTO reports (token_hash, user_id, file_name, pdf, created_at, expires_at)
       SELECT md5(random()::text) || n, $1, 'r.pdf', '\\x00', now() - interval '23 hours',
              now() + interval '1 day'
         FROM generate_series(1, 20) n`,
      [login.userID],
    );
    const send = () =>
      test.app.inject({
        method: 'POST',
        url: '/api/OobRates/sendPdftoUser',
        headers: authHeaders(login),
        payload: { number: '9075550143', search: custom('99213') },
        remoteAddress: '198.51.100.77',
      });
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ApiError>().message).toBe(
      'You can text at most 20 reports a day. Please try again tomorrow.',
    );
    const outbox = await test.app.inject({
      method: 'GET',
      url: '/dev/outbox.json?to=%2B19075550143',
    });
    expect(outbox.json()).toEqual([]);

    await pool.query(
      `UPDATE reports SET created_at = now() - interval '25 hours' WHERE user_id = $1`,
      [login.userID],
    );
    expect((await send()).statusCode).toBe(200);
  });

  // NANP: area code and exchange start with 2–9; a leading 1 is dropped only from 11 digits.
  it.each(['0000000000', '1234567890', '1907555012'])(
    'refuses to text %s, naming the field number, and sends nothing',
    async (number) => {
      const login = await signedInUser(test.app);
      const refused = await post(test, 'sendPdftoUser', login, {
        number,
        search: custom('99213'),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<ApiError>()).toMatchObject({
        message: SEARCH_MESSAGES.invalidNumber,
        errors: [{ field: 'number', message: SEARCH_MESSAGES.invalidNumber }],
      });
      const outbox = await test.app.inject({
        method: 'GET',
        url: `/dev/outbox.json?to=${encodeURIComponent(`+1${number}`)}`,
      });
      expect(outbox.json()).toEqual([]);
    },
  );
});
