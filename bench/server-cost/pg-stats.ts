/**
 * PostgreSQL's own counters, read with the cluster's `psql` (no client library): per database,
 * `pg_stat_database`'s transactions and tuples, and the cluster's write-ahead log position.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { POSTGRES_PASSWORD, POSTGRES_USER, type PostgresInfo } from '../../test/cluster/harness/postgres.js';

const run = promisify(execFile);

/** The `pg_stat_database` columns the figures use. */
export const PG_COUNTERS = [
  'xact_commit',
  'xact_rollback',
  'tup_returned',
  'tup_fetched',
  'tup_inserted',
  'tup_updated',
  'tup_deleted',
  'blks_read',
  'blks_hit',
] as const;
export type PgCounter = (typeof PG_COUNTERS)[number];

/** One reading: counters per database (`temporal`, `temporal_visibility`), and WAL bytes written so far. */
export interface PgSnapshot {
  databases: Record<string, Record<PgCounter, number>>;
  wal_bytes: number;
}

export async function readPgStats(pg: PostgresInfo, databases: readonly string[]): Promise<PgSnapshot> {
  const list = databases.map((d) => `'${d}'`).join(',');
  const queries = [
    `SELECT datname, ${PG_COUNTERS.join(', ')} FROM pg_stat_database WHERE datname IN (${list})`,
    `SELECT 'wal', pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')`,
  ];
  const { stdout } = await run(
    join(pg.binDir, 'psql'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(pg.port),
      '-U',
      POSTGRES_USER,
      '-d',
      'temporal',
      '-AtF',
      '\t',
      ...queries.flatMap((q) => ['-c', q]),
    ],
    { env: { ...process.env, PGPASSWORD: POSTGRES_PASSWORD } },
  );
  const snapshot: PgSnapshot = { databases: {}, wal_bytes: 0 };
  for (const line of stdout.trim().split('\n')) {
    const [name, ...values] = line.split('\t');
    if (name === 'wal') snapshot.wal_bytes = Number(values[0]);
    else
      snapshot.databases[name!] = Object.fromEntries(PG_COUNTERS.map((c, i) => [c, Number(values[i])])) as Record<
        PgCounter,
        number
      >;
  }
  return snapshot;
}
