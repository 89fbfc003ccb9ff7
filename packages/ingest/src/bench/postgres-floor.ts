/**
 * What PostgreSQL alone costs to load a hospital's rows, with our code idle: the rows of the
 * three rate tables, already encoded as COPY text in files, are loaded again into fresh tables
 * exactly as an ingest loads them (TableLoad: CREATE TABLE, COPY FREEZE, the same indexes,
 * COMMIT), and the CPU time of the server's processes is read from /proc. The benchmark compares
 * it with the CPU time the issue's 3× target leaves on this machine's cores
 * (docs/decisions/0013-ingest-loading.md). databaseSteps times the same rows' whole way through
 * the database, swap included, against the wall time the target leaves.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { poolLike, quoteIdent, type Pool, type PoolClient } from '@ratelens/db';
import { to as copyTo } from 'pg-copy-streams';
import {
  RATE_TABLES,
  TableLoad,
  currentPartitions,
  runTableNames,
  swapPartitions,
  type RunIds,
} from '../load/rate-tables.ts';

/** Linux reports process times in clock ticks of 1/100 s (USER_HZ) on every mainstream build. */
const TICKS_PER_SECOND = 100;

function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields count from after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // the process ended meanwhile
  }
}

/** utime + stime + cutime + cstime (fields 14 to 17 of /proc/<pid>/stat), in ticks. */
function ticksOf(fields: string[]): number {
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
}

/**
 * CPU seconds used so far by the server of a data directory: the postmaster, its live children
 * (backends, writer, checkpointer) and the children it has reaped (ended connections).
 */
export function postgresCpuSeconds(databaseDir: string): number {
  const postmaster = Number(
    readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const fields = statFields(pid);
    if (fields && (pid === postmaster || Number(fields[1]) === postmaster))
      ticks += ticksOf(fields);
  }
  return ticks / TICKS_PER_SECOND;
}

export interface Floor {
  /** CPU seconds of all PostgreSQL processes for the reload. */
  cpuSeconds: number;
  wallSeconds: number;
}

/** Writes the hospital's rows of each rate table, in key order, as COPY text files in `dir`. */
async function dumpRows(pool: Pool, hospitalId: string, dir: string): Promise<string[]> {
  const client = await pool.connect();
  try {
    const files: string[] = [];
    for (const spec of RATE_TABLES) {
      const file = path.join(dir, `${spec.parent}.copy`);
      const columns = spec.columns.map(quoteIdent).join(', ');
      const sql = `COPY (SELECT ${columns} FROM ${spec.parent} WHERE hospital_id = ${client.escapeLiteral(hospitalId)} ORDER BY ${columns}) TO STDOUT`;
      await pipeline(client.query(copyTo(sql)), createWriteStream(file));
      files.push(file);
    }
    return files;
  } finally {
    client.release();
  }
}

/**
 * Fills a run's three tables from the COPY text files, one connection each, as an ingest does
 * (TableLoad: CREATE TABLE, COPY FREEZE, the same indexes, COMMIT).
 */
async function loadTables(clients: PoolClient[], run: RunIds, files: string[]): Promise<void> {
  await Promise.all(
    RATE_TABLES.map(async (spec, i) => {
      const load = new TableLoad(clients[i]!, spec, run);
      await load.start();
      // COPY data need not end on a row: the file's text goes over as it is read.
      for await (const text of createReadStream(files[i]!, {
        encoding: 'utf8',
        highWaterMark: 256 * 1024,
      })) {
        const wait = load.write(text as string);
        if (wait) await wait;
      }
      await load.finish();
    }),
  );
}

/**
 * Loads the rows of the hospital's last ingest again, PostgreSQL doing exactly what it does in an
 * ingest, while nothing else runs, and measures its CPU. The tables are dropped afterwards.
 * Returns the COPY text files too, for databaseSteps.
 */
export async function postgresFloor(
  pool: Pool,
  databaseDir: string,
  hospitalId: string,
  workDir: string,
): Promise<Floor & { files: string[] }> {
  const files = await dumpRows(pool, hospitalId, workDir);
  const run = { runId: randomUUID(), hospitalId };
  const clients = await Promise.all(RATE_TABLES.map(() => pool.connect()));
  const cpuBefore = postgresCpuSeconds(databaseDir);
  const started = performance.now();
  try {
    await loadTables(clients, run, files);
  } finally {
    for (const client of clients) client.release(true);
  }
  const wallSeconds = (performance.now() - started) / 1000;
  // The closed connections' backends are reaped by the postmaster, which then counts their time.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const cpuSeconds = postgresCpuSeconds(databaseDir) - cpuBefore;
  const names = Object.values(runTableNames(run.runId)).map(quoteIdent);
  await pool.query(`DROP TABLE IF EXISTS ${names.join(', ')}`);
  return { cpuSeconds, wallSeconds, files };
}

/**
 * The wall time of the database's steps of an ingest (issue 3, point 4), end to end, for a reader
 * that would cost nothing: the rows are ready as COPY text files (from postgresFloor). Fresh
 * connections (each authenticates), the run recorded, the three tables filled as an ingest fills
 * them, and the swap: the hospital's partitions dropped, the run's attached, the run marked
 * loaded, committed. It leaves out work a real ingest adds (the run's lock, the hospital's row and
 * place, its summary, payer/plan ids and codes, the validation report), so it is a lower bound.
 * Reading the files is not quite free: they are in the page cache, and Node decodes them (about
 * 0.8 MB of text per MB of a JSON file) on the core PostgreSQL's second backend could use.
 * The hospital's rows are replaced by the same rows.
 */
export async function databaseSteps(
  pool: Pool,
  hospitalId: string,
  files: string[],
): Promise<number> {
  const own = poolLike(pool, RATE_TABLES.length + 1);
  const run = { runId: randomUUID(), hospitalId };
  try {
    const started = performance.now();
    const [recorder, ...loaders] = await Promise.all(
      Array.from({ length: RATE_TABLES.length + 1 }, () => own.connect()),
    );
    try {
      await recorder!.query(
        `INSERT INTO mrf_files (id, source, status) VALUES ($1, 'bench: database steps', 'loading')`,
        [run.runId],
      );
      await loadTables(loaders, run, files);
      // The swap, on the connection that recorded the run (all four are open already).
      await recorder!.query('BEGIN');
      await swapPartitions(recorder!, run, await currentPartitions(recorder!, hospitalId));
      await recorder!.query(
        `UPDATE mrf_files SET status = 'loaded', hospital_id = $2, finished_at = now() WHERE id = $1`,
        [run.runId, hospitalId],
      );
      await recorder!.query('COMMIT');
      return (performance.now() - started) / 1000;
    } finally {
      recorder!.release();
      for (const client of loaders) client.release();
    }
  } finally {
    await own.end();
  }
}
