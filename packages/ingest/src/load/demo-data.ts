import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Connection } from '@ratelens/db';
import { generateDemo } from '../demo/generate-demo.ts';
import { parseCbsaDelineation } from '../reference/cbsa.ts';
import { ingestFile } from './ingest-file.ts';
import { hospitalLocator, loadCbsaDelineation, loadStates } from './reference-loader.ts';

/** The official delineation, when the shared reference data sits beside the repository. */
const SHARED_CBSA_LIST = fileURLToPath(
  new URL('../../../../../shared/data/census-cbsa/list1_2023_county_to_cbsa.csv', import.meta.url),
);

/**
 * The CBSAs of the demo hospitals (titles as in OMB Bulletin 23-01), for a database where the
 * delineation has not been loaded (`npm run reference -- cbsa …` replaces them with the full list).
 */
const DEMO_CBSAS: readonly [code: string, title: string, kind: string, states: string[]][] = [
  ['11260', 'Anchorage, AK', 'metropolitan', ['AK']],
  ['21820', 'Fairbanks-College, AK', 'metropolitan', ['AK']],
  ['27940', 'Juneau, AK', 'micropolitan', ['AK']],
  ['28540', 'Ketchikan, AK', 'micropolitan', ['AK']],
  ['36740', 'Orlando-Kissimmee-Sanford, FL', 'metropolitan', ['FL']],
  ['45300', 'Tampa-St. Petersburg-Clearwater, FL', 'metropolitan', ['FL']],
  ['14460', 'Boston-Cambridge-Newton, MA-NH', 'metropolitan', ['MA', 'NH']],
  ['47240', 'Vineyard Haven, MA', 'micropolitan', ['MA']],
  ['13820', 'Birmingham, AL', 'metropolitan', ['AL']],
  ['26420', 'Houston-Pasadena-The Woodlands, TX', 'metropolitan', ['TX']],
  ['38300', 'Pittsburgh, PA', 'metropolitan', ['PA']],
];

export interface DemoLoadResult {
  hospitals: number;
  states: number;
  rates: number;
  seconds: number;
  /** Where the geography came from. */
  geography: 'census-list-1' | 'demo-table';
}

/** True when the database holds no hospital yet: the case where `npm start` loads the demo. */
export async function isEmpty(connection: Connection): Promise<boolean> {
  const { rows } = await connection.pool.query('SELECT 1 FROM hospitals LIMIT 1');
  return rows.length === 0;
}

/**
 * Writes the deterministic demo files (fictional hospitals, names saying "Demo") into
 * `outDir` and ingests them through the same pipeline as real files.
 */
export async function loadDemoData(
  connection: Connection,
  outDir: string,
  options: { scale?: number; onHospital?: (done: number, total: number) => void } = {},
): Promise<DemoLoadResult> {
  const started = performance.now();
  const pool = connection.pool;
  await loadStates(pool);
  let geography: DemoLoadResult['geography'] = 'census-list-1';
  const { rows: counties } = await pool.query('SELECT 1 FROM counties LIMIT 1');
  const manifest = await generateDemo({ outDir, scale: options.scale });
  if (counties.length === 0) {
    if (existsSync(SHARED_CBSA_LIST)) {
      await loadCbsaDelineation(pool, await parseCbsaDelineation(SHARED_CBSA_LIST));
    } else {
      geography = 'demo-table';
      for (const [code, title, kind, states] of DEMO_CBSAS) {
        await pool.query(
          `INSERT INTO cbsas (code, title, kind, state_codes) VALUES ($1, $2, $3, $4) ON CONFLICT (code) DO NOTHING`,
          [code, title, kind, states],
        );
      }
      for (const hospital of manifest.hospitals) {
        if (!hospital.cbsa) continue;
        await pool.query(
          `INSERT INTO counties (fips, name, state_code, cbsa_code) VALUES ($1, $1, $2, $3) ON CONFLICT (fips) DO NOTHING`,
          [hospital.countyFips, hospital.state, hospital.cbsa],
        );
      }
    }
  }
  const locate = hospitalLocator(pool);
  let rates = 0;
  for (const hospital of manifest.hospitals) {
    const result = await ingestFile(connection, hospital.path, { demo: true, locate });
    if (result.status === 'failed')
      throw new Error(
        `demo file ${path.basename(hospital.path)} did not load: ${result.error ?? 'unknown error'}`,
      );
    // CMS files carry no hospital type or system: the demo sets them as an admin would.
    await pool.query(
      `UPDATE hospitals SET hospital_type = $2, health_system_type = $3 WHERE id = $1`,
      [result.hospitalId, hospital.hospitalType, hospital.healthSystemType],
    );
    rates += result.rates;
    options.onHospital?.(manifest.hospitals.indexOf(hospital) + 1, manifest.hospitals.length);
  }
  return {
    hospitals: manifest.hospitals.length,
    states: new Set(manifest.hospitals.map((h) => h.state)).size,
    rates,
    seconds: (performance.now() - started) / 1000,
    geography,
  };
}
