/**
 * `npm run bench:ingest`: our full ingest (read, validate, normalise, COPY, swap) against CMS's
 * validator on the same files, each in its own process, on a fresh embedded PostgreSQL:
 * the AdventHealth JSON, the Martha's Vineyard CSV, and a generated JSON of --bytes (default 1 GB).
 * Prints MB/s and peak RSS for both, the throughput ratio, and the targets (≥ 3×, < 300 MB).
 * Then, per file, the CPU time the 3× target leaves on this machine's cores against the least the
 * work takes: PostgreSQL loading the same rows with our code idle (postgres-floor.ts) plus our
 * reader alone (parse, validate, normalise; `--validate-only`, nothing loaded), the lower of two
 * runs. And in wall time, the database's steps of an ingest alone (connections, the run's row, the
 * three tables, the swap; databaseSteps) against a third of the validator's time, in five rounds
 * for the two real files, each timing the validator again.
 * With --wide N, also a generated wide CSV of 13 MB with N payer/plan pairs (a column group each):
 * not one of the files, but the validator's throughput falls as a wide file's pairs grow
 * (ADR 0013, "Session 35").
 * With --tall SIZE, also a generated tall CSV of that size: not one of the files either,
 * but one of 600M has three times the charges the CSV reader remembers (RECENT_CHARGES), where
 * forgetting them once cost more than reading (ADR 0013, "Session 36").
 *   npm run bench:ingest [-- --bytes 1G] [--skip-large] [--wide 600] [--tall 600M]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import { connect, runMigrations, startEmbeddedPostgres } from '@ratelens/db';
import { generateLargeFile } from '../demo/generate-demo.ts';
import { sharedDataPath } from '../testing/shared-data.ts';
import { databaseSteps, postgresCpuSeconds, postgresFloor } from './postgres-floor.ts';

interface Figures {
  seconds: number;
  /** CPU seconds of the process's work (our CLI only). */
  cpuSeconds?: number;
  mbPerSecond: number;
  peakRssMb: number;
}

function parseBytes(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(text.trim());
  if (!match) throw new Error(`--${option}: expected a size such as 1G or 500M, got ${text}`);
  const unit = { '': 1, k: 1e3, m: 1e6, g: 1e9 }[(match[2] ?? '').toLowerCase()] ?? 1;
  return Number(match[1]) * unit;
}

function lastJsonLine(output: string): Figures {
  const line = output
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .at(-1);
  if (!line) throw new Error(`no result line in:\n${output}`);
  return JSON.parse(line) as Figures;
}

/** The heap ceiling `npm run ingest` runs with: V8 otherwise lets garbage pile up far past 300 MB. */
export const INGEST_HEAP_FLAG = '--max-old-space-size=192';

/** Files smaller than this get STEP_ROUNDS rounds of the database's steps against the validator. */
const STEP_ROUNDS_BELOW_BYTES = 100e6;
const STEP_ROUNDS = 5;

/** The machine's CPU time so far, from the first line of /proc/stat, in seconds. */
function machineSeconds(): { busy: number; idle: number; iowait: number; steal: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((n) => Number(n) / 100);
  return {
    busy: user! + nice! + system! + irq! + softirq!,
    idle: idle!,
    iowait: iowait!,
    steal: steal!,
  };
}

function run(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeFlags: string[] = [],
): Figures {
  const child = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.status !== 0)
    throw new Error(`${path.basename(script)} ${args.join(' ')} failed:\n${child.stderr}`);
  return lastJsonLine(child.stdout);
}

const { values } = parseArgs({
  options: {
    bytes: { type: 'string', default: '1G' },
    'skip-large': { type: 'boolean' },
    wide: { type: 'string' },
    tall: { type: 'string' },
  },
});
const widePlans = values.wide === undefined ? undefined : Number(values.wide);
if (widePlans !== undefined && !(Number.isInteger(widePlans) && widePlans > 0))
  throw new Error(`--wide: expected a number of payer/plan pairs such as 600, got ${values.wide}`);
/** The wide file's size: the validator reads a 600-pair file at about 0.3 MB/s. */
const WIDE_BYTES = 13e6;
const workDir = await mkdtemp(path.join(tmpdir(), 'ratelens-bench-'));
// On root the embedded server runs as `postgres`, which must be able to reach its folder.
await chmod(workDir, 0o755);
const database = await startEmbeddedPostgres(path.join(workDir, 'db'));
try {
  await runMigrations(database.url);
  const files: { label: string; file: string }[] = [
    {
      label: 'AdventHealth Orlando JSON',
      file: sharedDataPath(
        'mrf-real-json-adventhealth-orlando/adventhealth-orlando_standardcharges_v3.0.0_reassembled.json',
      ),
    },
    {
      label: "Martha's Vineyard tall CSV",
      file: sharedDataPath(
        'mrf-real-csv-tall-marthas-vineyard/042104691_Marthas-Vineyard-Hospital_StandardCharges.csv',
      ),
    },
  ];
  for (const { file } of files)
    if (!existsSync(file)) throw new Error(`missing benchmark file ${file}`);
  if (widePlans !== undefined) {
    const file = path.join(workDir, 'generated-wide.csv');
    process.stderr.write(`Generating a wide CSV with ${widePlans} payer/plan pairs…\n`);
    await generateLargeFile({
      path: file,
      format: 'csv-wide',
      targetBytes: WIDE_BYTES,
      seed: 42,
      plans: widePlans,
    });
    const megabytes = (statSync(file).size / 1e6).toFixed(0);
    files.push({ label: `Generated wide CSV (${widePlans} pairs, ${megabytes} MB)`, file });
  }
  if (values.tall !== undefined) {
    const target = parseBytes(values.tall, 'tall');
    const file = path.join(workDir, 'generated-tall.csv');
    process.stderr.write(`Generating a ${(target / 1e6).toFixed(0)} MB tall CSV…\n`);
    await generateLargeFile({ path: file, format: 'csv-tall', targetBytes: target, seed: 42 });
    files.push({
      label: `Generated tall CSV (${(statSync(file).size / 1e6).toFixed(0)} MB)`,
      file,
    });
  }
  if (!values['skip-large']) {
    const target = parseBytes(values.bytes, 'bytes');
    const file = path.join(workDir, 'generated.json');
    process.stderr.write(`Generating a ${(target / 1e9).toFixed(2)} GB demo JSON file…\n`);
    await generateLargeFile({ path: file, format: 'json', targetBytes: target, seed: 42 });
    files.push({ label: `Generated JSON (${(statSync(file).size / 1e9).toFixed(2)} GB)`, file });
  }
  const env = { ...process.env, DATABASE_URL: database.url };
  const ingestCli = path.resolve('packages/ingest/src/cli/ingest.ts');
  const validator = path.resolve('packages/ingest/src/bench/hpt-validate.ts');
  const rows: string[] = [];
  const floors: string[] = [];
  const steps: string[] = [];
  const times: string[] = [];
  const databaseDir = path.join(workDir, 'db', 'pg');
  const connection = connect(database.url, { statementTimeoutMs: 0, applicationName: 'bench' });
  const pool = connection.pool;
  const cores = availableParallelism();
  for (const { label, file } of files) {
    process.stderr.write(`${label}: our ingest…\n`);
    const pgBefore = postgresCpuSeconds(databaseDir);
    const machineBefore = machineSeconds();
    const ours = run(ingestCli, [file], env, [INGEST_HEAP_FLAG]);
    const machineAfter = machineSeconds();
    const pgCpu = postgresCpuSeconds(databaseDir) - pgBefore;
    const spent = (key: keyof typeof machineAfter) =>
      (machineAfter[key] - machineBefore[key]).toFixed(1);
    process.stderr.write(`${label}: hpt-validator…\n`);
    const theirs = run(validator, [file], env);
    const ratio = ours.mbPerSecond / theirs.mbPerSecond;
    rows.push(
      `${label.padEnd(38)} ours ${ours.mbPerSecond.toFixed(1).padStart(6)} MB/s ${String(ours.peakRssMb).padStart(4)} MB RSS | ` +
        `hpt-validator ${theirs.mbPerSecond.toFixed(1).padStart(6)} MB/s ${String(theirs.peakRssMb).padStart(4)} MB RSS | ` +
        `ratio ${ratio.toFixed(2)}× (target ≥ 3×: ${ratio >= 3 ? 'met' : 'NOT met'}; RSS < 300 MB: ${ours.peakRssMb < 300 ? 'met' : 'NOT met'})`,
    );
    // Where our ingest's time went, on all cores: Node, PostgreSQL, and the machine's idle, I/O
    // wait and stolen (hypervisor) time, so a slow figure says whether it waited or worked.
    times.push(
      `${label.padEnd(38)} our ingest ${ours.seconds.toFixed(1)} s wall × ${cores} cores: Node ${(ours.cpuSeconds ?? 0).toFixed(1)} CPU s, ` +
        `PostgreSQL ${pgCpu.toFixed(1)} CPU s, machine busy ${spent('busy')} s, idle ${spent('idle')} s, ` +
        `I/O wait ${spent('iowait')} s, stolen ${spent('steal')} s`,
    );
    process.stderr.write(`${label}: our reader alone, then PostgreSQL alone…\n`);
    // The lower of two runs: on this shared machine one run in several takes about twice the CPU
    // (ADR 0013, "Session 7"), and the floor is the least the work takes.
    const reader = [1, 2]
      .map(() => run(ingestCli, ['--validate-only', file], env, [INGEST_HEAP_FLAG]))
      .reduce((a, b) => ((b.cpuSeconds ?? 0) < (a.cpuSeconds ?? 0) ? b : a));
    const {
      rows: [last],
    } = await pool.query<{ hospital_id: string }>(
      `SELECT hospital_id FROM mrf_files WHERE status = 'loaded' ORDER BY finished_at DESC LIMIT 1`,
    );
    if (!last) throw new Error(`${label}: no loaded run to measure PostgreSQL on`);
    const floor = await postgresFloor(pool, databaseDir, last.hospital_id, workDir);
    // 3× the validator's MB/s: the whole ingest in a third of the validator's time, on every core.
    const budget = (cores * theirs.seconds) / 3;
    const readerCpu = reader.cpuSeconds ?? 0;
    const least = floor.cpuSeconds + readerCpu;
    const verdict =
      floor.cpuSeconds > budget
        ? 'out of reach on this machine: PostgreSQL alone takes more'
        : least > budget
          ? `out of reach with this reader: reading would have to fit in ${(budget - floor.cpuSeconds).toFixed(2)} CPU s`
          : 'within reach';
    floors.push(
      `${label.padEnd(38)} 3× leaves ${budget.toFixed(2)} CPU s (${cores} cores × ${(theirs.seconds / 3).toFixed(2)} s) | ` +
        `PostgreSQL alone ${floor.cpuSeconds.toFixed(2)} CPU s (${floor.wallSeconds.toFixed(2)} s wall) + our reader alone ` +
        `${readerCpu.toFixed(2)} CPU s (${reader.seconds.toFixed(2)} s wall) = ${least.toFixed(2)} | our whole ingest used ` +
        `${(ours.cpuSeconds ?? 0).toFixed(2)} CPU s in Node | 3× ${verdict}`,
    );
    // The same in wall time, which is what the ratio counts: the database's steps of an ingest
    // with a reader that costs nothing, against a third of the validator's time, in rounds that
    // each time the validator again (its speed moves with the machine's load).
    process.stderr.write(`${label}: the database's steps alone, against the validator…\n`);
    const rounds = statSync(file).size < STEP_ROUNDS_BELOW_BYTES ? STEP_ROUNDS : 1;
    const pairs: { steps: number; leaves: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const validatorSeconds = round === 0 ? theirs.seconds : run(validator, [file], env).seconds;
      pairs.push({
        steps: await databaseSteps(pool, last.hospital_id, floor.files),
        leaves: validatorSeconds / 3,
      });
    }
    const within = pairs.filter((pair) => pair.steps <= pair.leaves).length;
    steps.push(
      `${label.padEnd(38)} the database's steps alone (fresh connections, run recorded, three tables ` +
        `filled, swap; rows ready, reading free) against what 3× leaves of wall time, per round: ` +
        pairs.map((p) => `${p.steps.toFixed(3)}/${p.leaves.toFixed(3)} s`).join(', ') +
        ` | within it in ${within} of ${rounds}`,
    );
  }
  await connection.close();
  console.log(rows.join('\n'));
  console.log(times.join('\n'));
  console.log(floors.join('\n'));
  console.log(steps.join('\n'));
} finally {
  await database.stop();
  await rm(workDir, { recursive: true, force: true });
}
