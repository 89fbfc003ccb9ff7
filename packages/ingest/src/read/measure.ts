/**
 * Reads MRFs fully and prints throughput, records, payers and peak RSS; optionally the same for
 * CMS's @cmsgov/hpt-validator, and a memory-flatness check on a generated large JSON.
 *
 *   node --import tsx packages/ingest/src/read/measure.ts [--hpt] [--large=200000] [files…]
 *
 * Without files it reads the two real files in ../shared/data. Each measurement runs in its own
 * child process so that peak RSS (process.resourceUsage().maxRSS) belongs to that read alone.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { openMrf } from './index.ts';
import { sharedDataPath } from '../testing/shared-data.ts';

const REAL_FILES = [
  'mrf-real-json-adventhealth-orlando/adventhealth-orlando_standardcharges_v3.0.0_reassembled.json',
  'mrf-real-csv-tall-marthas-vineyard/042104691_Marthas-Vineyard-Hospital_StandardCharges.csv',
];

interface Measurement {
  tool: string;
  file: string;
  megabytes: number;
  seconds: number;
  mbPerSecond: number;
  records: number;
  payers: number;
  errors: number;
  warnings: number;
  peakRssMb: number;
}

async function measureOurs(file: string): Promise<Measurement> {
  const started = performance.now();
  const reader = await openMrf(file);
  let records = 0;
  let payers = 0;
  for await (const record of reader.records) {
    records++;
    payers += record.payers.length;
  }
  const seconds = (performance.now() - started) / 1000;
  const megabytes = reader.stats().bytes / 1e6;
  return {
    tool: 'ratelens',
    file,
    megabytes,
    seconds,
    mbPerSecond: megabytes / seconds,
    records,
    payers,
    errors: reader.report.errorCount,
    warnings: reader.report.warningCount,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

async function measureHpt(file: string): Promise<Measurement> {
  // Optional dev dependency, loaded only when asked for.
  const hpt = await import('@cmsgov/hpt-validator');
  const started = performance.now();
  const input = createReadStream(file);
  // No value callback: its plain validation is its fastest mode (a conservative baseline).
  const records = 0;
  const result = file.endsWith('.json')
    ? await hpt.validateJson(input, 'v3.0.0')
    : await hpt.validateCsv(input, 'v3.0.0');
  const seconds = (performance.now() - started) / 1000;
  const megabytes = statSync(file).size / 1e6;
  return {
    tool: 'hpt-validator',
    file,
    megabytes,
    seconds,
    mbPerSecond: megabytes / seconds,
    records,
    payers: 0,
    errors: result.errors.length,
    warnings: result.alerts.length,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

/** Writes a v3 JSON MRF of `items` items (each ~600 bytes, 4 payers) with a stream. */
async function writeLargeJson(path: string, items: number): Promise<void> {
  const out = createWriteStream(path);
  const write = (s: string): Promise<void> | null =>
    out.write(s) ? null : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await write(
    '{"hospital_name":"Generated Test Hospital","last_updated_on":"2026-01-01","version":"3.0.0",' +
      '"location_name":["Generated"],"hospital_address":["1 Test St, Nowhere, MA 00000"],' +
      '"license_information":{"license_number":"1","state":"MA"},"type_2_npi":["0000000000"],' +
      '"attestation":{"attestation":"x","confirm_attestation":true,"attester_name":"Test"},' +
      '"standard_charge_information":[',
  );
  for (let i = 0; i < items; i++) {
    const payers = [0, 1, 2, 3]
      .map(
        (k) =>
          `{"payer_name":"Payer ${k}","plan_name":"Plan ${k}","methodology":"fee schedule","standard_charge_dollar":${100 + k + (i % 97)}}`,
      )
      .join(',');
    await write(
      `${i ? ',' : ''}{"description":"Generated service ${i}","code_information":[{"code":"${10000 + (i % 89999)}","type":"CPT"}],` +
        `"standard_charges":[{"setting":"outpatient","gross_charge":${200 + (i % 1000)},"discounted_cash":150,"minimum":100,"maximum":199,"payers_information":[${payers}]}]}`,
    );
  }
  await write(']}');
  out.end();
  await finished(out);
}

function runChild(args: string[]): Measurement {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`measurement failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as Measurement;
}

function print(m: Measurement): void {
  console.log(
    `${m.tool.padEnd(14)} ${m.file.split('/').pop()?.slice(0, 48).padEnd(48)} ` +
      `${m.megabytes.toFixed(1).padStart(7)} MB ${m.seconds.toFixed(2).padStart(6)} s ` +
      `${m.mbPerSecond.toFixed(1).padStart(6)} MB/s  records ${m.records}  payers ${m.payers}  ` +
      `errors ${m.errors}  warnings ${m.warnings}  peak RSS ${m.peakRssMb.toFixed(0)} MB`,
  );
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--child') {
    const [, tool, file] = argv;
    const m = tool === 'hpt' ? await measureHpt(file ?? '') : await measureOurs(file ?? '');
    console.log(JSON.stringify(m));
    return;
  }
  const hpt = argv.includes('--hpt');
  const large = argv.find((a) => a.startsWith('--large'));
  const files = argv.filter((a) => !a.startsWith('--'));
  const targets = files.length ? files : REAL_FILES.map((f) => sharedDataPath(f));
  for (const file of targets) {
    if (!existsSync(file)) {
      console.log(`skipped (missing): ${file}`);
      continue;
    }
    print(runChild(['ours', file]));
    if (hpt) print(runChild(['hpt', file]));
  }
  if (large) {
    const items = Number(large.split('=')[1] ?? 200_000);
    const path = join(tmpdir(), `ratelens-large-${process.pid}.json`);
    try {
      await writeLargeJson(path, items);
      print(runChild(['ours', path]));
    } finally {
      await rm(path, { force: true });
    }
  }
}

await main(process.argv.slice(2));
