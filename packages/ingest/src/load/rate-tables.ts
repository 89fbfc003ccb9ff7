import {
  copyWriter,
  quoteIdent,
  type CopyWriter,
  type Pool,
  type PoolClient,
  type Queryable,
} from '@ratelens/db';

/*
 * The rate tables are LIST-partitioned by hospital: one partition per hospital and table
 * (migration 0006). An ingest run fills three fresh tables, one per rate table, and the swap
 * attaches them as the hospital's partitions in place of the old ones. The choice and its
 * measurements: docs/decisions/0013-ingest-loading.md.
 */

export type RateTableName = 'charge_items' | 'item_codes' | 'negotiated_rates';

interface RateTableSpec {
  parent: RateTableName;
  /** The columns the COPY text carries; hospital_id (and mrf_file_id) come from defaults. */
  columns: readonly string[];
  /** Columns the run fills with one value through a column default. */
  constants: (run: RunIds) => Record<string, string>;
  /** The parent's indexes, created on the empty table (so ATTACH adopts them instead of building its own). */
  indexes: (table: string) => string[];
}

export interface RunIds {
  runId: string;
  hospitalId: string;
}

interface IndexDefinition {
  columns: string[];
  primaryKey?: boolean;
}

/**
 * The parent tables' indexes (migrations 0006 and 0010): the same columns, so ATTACH adopts them.
 * They are created on the empty table and kept row by row during the COPY, on the core our reader
 * leaves to PostgreSQL while it waits for our rows. Built after the COPY in one sort they cost less
 * CPU but come at the end, on the ingest's critical path: the code index alone took 0.3–0.4 s there
 * on a 200 MB file (docs/decisions/0013-ingest-loading.md). Keys in ascending order (all but the
 * code index) go to the rightmost leaf page and cost least.
 */
const INDEXES: Record<RateTableName, IndexDefinition[]> = {
  charge_items: [{ primaryKey: true, columns: ['hospital_id', 'item_id'] }],
  item_codes: [
    { primaryKey: true, columns: ['hospital_id', 'item_id', 'code_type', 'code'] },
    { columns: ['code', 'code_type', 'hospital_id'] },
  ],
  negotiated_rates: [{ primaryKey: true, columns: ['hospital_id', 'item_id', 'rate_id'] }],
};

function indexesFor(parent: RateTableName) {
  return (table: string) =>
    INDEXES[parent].map((index, i) => {
      const columns = index.columns.map(quoteIdent).join(', ');
      return index.primaryKey
        ? `ALTER TABLE ${quoteIdent(table)} ADD CONSTRAINT ${quoteIdent(`${table}_pkey`)} PRIMARY KEY (${columns})`
        : `CREATE INDEX ${quoteIdent(`${table}_idx${i}`)} ON ${quoteIdent(table)} (${columns})`;
    });
}

export const RATE_TABLES: readonly RateTableSpec[] = [
  {
    parent: 'charge_items',
    columns: [
      'item_id',
      'description',
      'setting',
      'billing_class',
      'modifiers',
      'drug_unit',
      'drug_type',
      'gross',
      'discounted_cash',
      'min',
      'max',
      'notes',
    ],
    constants: ({ runId, hospitalId }) => ({ hospital_id: hospitalId, mrf_file_id: runId }),
    indexes: indexesFor('charge_items'),
  },
  {
    parent: 'item_codes',
    columns: ['item_id', 'code_type', 'code', 'category'],
    constants: ({ hospitalId }) => ({ hospital_id: hospitalId }),
    indexes: indexesFor('item_codes'),
  },
  {
    parent: 'negotiated_rates',
    columns: [
      'rate_id',
      'item_id',
      'plan_id',
      'methodology',
      'dollar',
      'percentage',
      'algorithm',
      'estimated_amount',
      'median',
      'p10',
      'p90',
      'count',
      'notes',
      'effective_amount',
      'effective_origin',
    ],
    constants: ({ hospitalId }) => ({ hospital_id: hospitalId }),
    indexes: indexesFor('negotiated_rates'),
  },
];

/** The tables a run fills, named after the run: `negotiated_rates_<run id without dashes>`. */
export function runTableNames(runId: string): Record<RateTableName, string> {
  const suffix = runId.replace(/-/g, '');
  return {
    charge_items: `charge_items_${suffix}`,
    item_codes: `item_codes_${suffix}`,
    negotiated_rates: `negotiated_rates_${suffix}`,
  };
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * One table of a run, filled on its own connection in its own transaction: CREATE TABLE with its
 * indexes, COPY (FREEZE), COMMIT. Created and filled in one transaction, the table is
 * written straight to its files under wal_level=minimal (no WAL); until the commit nothing of it
 * exists for anyone else, so a process killed mid-COPY leaves nothing behind.
 */
export class TableLoad {
  readonly name: string;
  private writer: CopyWriter | null = null;

  constructor(
    private readonly client: PoolClient,
    private readonly spec: RateTableSpec,
    private readonly run: RunIds,
  ) {
    this.name = runTableNames(run.runId)[spec.parent];
  }

  async start(): Promise<void> {
    const table = quoteIdent(this.name);
    const constants = Object.entries(this.spec.constants(this.run));
    const columns = await parentColumns(this.client, this.spec.parent);
    // The CHECK lets ATTACH PARTITION skip scanning the table for rows of other hospitals.
    await this.client.query(
      `BEGIN;
       CREATE TABLE ${table} (${columns}, ${this.check(this.run.hospitalId)});
       ${constants.map(([column, value]) => `ALTER TABLE ${table} ALTER COLUMN ${quoteIdent(column)} SET DEFAULT ${literal(value)};`).join('\n')}
       ${this.spec
         .indexes(this.name)
         .map((statement) => `${statement};`)
         .join('\n')}`,
    );
    this.writer = copyWriter(this.client, this.name, this.spec.columns, { freeze: true });
  }

  write(line: string): Promise<void> | undefined {
    return (this.writer as CopyWriter).write(line);
  }

  /**
   * Ends the COPY and commits (which writes the table's files to disk). The rows are the
   * hospital's with the id `hospitalId`: when it is not the one they were written with (a file
   * whose name or licence followed its items turned out to be a hospital already known), they are
   * moved to it first, in the same transaction. That rewrites every row, as rare as it is.
   */
  async finish(hospitalId: string = this.run.hospitalId): Promise<void> {
    await (this.writer as CopyWriter).end();
    if (hospitalId !== this.run.hospitalId) {
      const table = quoteIdent(this.name);
      await this.client.query(
        `ALTER TABLE ${table} DROP CONSTRAINT ${quoteIdent(`${this.name}_hospital`)};
         UPDATE ${table} SET hospital_id = ${literal(hospitalId)};
         ALTER TABLE ${table} ADD ${this.check(hospitalId)},
                              ALTER COLUMN hospital_id SET DEFAULT ${literal(hospitalId)};`,
      );
    }
    await this.client.query('COMMIT');
  }

  private check(hospitalId: string): string {
    return `CONSTRAINT ${quoteIdent(`${this.name}_hospital`)} CHECK (hospital_id = ${literal(hospitalId)})`;
  }

  /** Abandons the COPY; the transaction rolls back and the table never existed. */
  async abort(reason: Error): Promise<void> {
    await this.writer?.abort(reason);
  }
}

/**
 * The parent's columns as a CREATE TABLE list: what `LIKE parent` gives (names, types, collations,
 * NOT NULL), read from the catalog, which takes no lock. `LIKE` locks the parent until the run's
 * COPY commits, and a swap that drops a hospital's old partitions needs the parent to itself: every
 * swap waited for every other hospital's COPY in progress, and rate searches queued behind the
 * swap meanwhile (docs/decisions/0013-ingest-loading.md, "Session 37").
 */
async function parentColumns(client: PoolClient, parent: RateTableName): Promise<string> {
  const { rows } = await client.query<{ definition: string }>(
    `SELECT format('%I %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                   CASE WHEN a.attcollation <> t.typcollation THEN ' COLLATE ' || a.attcollation::regcollation END,
                   CASE WHEN a.attnotnull THEN ' NOT NULL' END) AS definition
       FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [parent],
  );
  return rows.map((row) => row.definition).join(', ');
}

/**
 * The hospital's current partitions (none before its first load), in the order of their parents'
 * names, so that a DROP of them locks the parents in that order (in catalog order it varied from
 * one hospital to the next).
 */
export async function currentPartitions(client: Queryable, hospitalId: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent IN ('charge_items'::regclass, 'item_codes'::regclass, 'negotiated_rates'::regclass)
        AND pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES IN (%L)', $1::text)
      ORDER BY i.inhparent::regclass::text`,
    [hospitalId],
  );
  return rows.map((r) => r.name);
}

/**
 * In the swap transaction: the hospital's old partitions go and the run's tables take their
 * place. Only catalog work: no row is copied or indexed here. DROP takes an ACCESS EXCLUSIVE lock
 * on the parent tables until the commit, a few milliseconds later (more when the files of a
 * large old partition are removed at the commit).
 */
export async function swapPartitions(
  client: PoolClient,
  run: RunIds,
  old: readonly string[],
): Promise<void> {
  if (old.length > 0) await client.query(`DROP TABLE ${old.map(quoteIdent).join(', ')}`);
  const names = runTableNames(run.runId);
  for (const spec of RATE_TABLES) {
    // Rows of the hospital written without an ingest (they sit in the default partition, which
    // ATTACH checks for rows of the new bound; normally it is empty).
    await client.query(
      `DELETE FROM ${quoteIdent(`${spec.parent}_default`)} WHERE hospital_id = $1`,
      [run.hospitalId],
    );
    await client.query(
      `ALTER TABLE ${spec.parent} ATTACH PARTITION ${quoteIdent(names[spec.parent])} FOR VALUES IN (${literal(run.hospitalId)})`,
    );
  }
}

/** Drops a run's tables that were never attached (failed, unchanged, older or interrupted runs). */
export async function dropRunTables(pool: Pool, runId: string): Promise<void> {
  const names = Object.values(runTableNames(runId));
  const { rows } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relname = ANY($1::text[]) AND c.relkind = 'r' AND NOT c.relispartition`,
    [names],
  );
  if (rows.length > 0)
    await pool.query(`DROP TABLE IF EXISTS ${rows.map((r) => quoteIdent(r.name)).join(', ')}`);
}
