// Import into the databases against their own loaders (issue 25): `stint import --into sqlite:` against the
// Debian `sqlite3` command's `.import`, and `stint import --into postgres://` against `psql \copy` into a table of
// the same types, on a PostgreSQL started for the run (test/helpers/postgres-server.ts), and
// `stint import --into duckdb:` against DuckDB's own `CREATE TABLE AS … read_csv` (run in this process, both
// cores). Alternating rounds,
// medians of CPU time of the whole client process (the server's work is not in it: wall time is the figure to
// read for PostgreSQL) beside wall time and the load average.
import { spawnSync } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../test/helpers/postgres-server.js';
import { withPostgres } from '../test/helpers/postgres-table.js';
import { dataFile, home } from './suites.js';
import { alternatingRounds, inThisProcess, median, underGnuTime } from './measure.js';
import { duckDbLoad, loadDuckDb } from './duckdb-baseline.js';
import type { Figure, ProcessCost, Rounds, Step } from './measure.js';

const WORK = join(tmpdir(), 'stint-bench');
const ROUNDS = Number(process.env['BENCH_LOADER_ROUNDS'] ?? 2);
const TEMPLATE = 'bench_types';

/** One import on a fresh state folder (a run found in the last one's would be answered again). */
let calls = 0;
const stintImport = (args: string[]) =>
  underGnuTime([STINT_BIN, 'import', ...args, '--budget', '0'], { STINT_HOME: home(`databases-${++calls}`) });

/** A SQLite file path, removed with its WAL before and after use. */
async function onSqlite(name: string, work: (path: string) => Promise<ProcessCost>): Promise<ProcessCost> {
  const path = join(WORK, `${name}-${process.pid}.db`);
  const clear = () => ['', '-wal', '-shm', '-journal', '.wal'].forEach((s) => rmSync(`${path}${s}`, { force: true }));
  clear();
  try {
    return await work(path);
  } finally {
    clear();
  }
}

/** A table name on the server, dropped (with stint's records of it) before and after use. */
async function onTable(server: PostgresServer, name: string, work: (table: string) => Promise<ProcessCost>) {
  const drop = () => withPostgres(server.url, async (client) => {
    await client.query(`DROP TABLE IF EXISTS "${name}", "${name}_rejects"`);
    await client.query('DELETE FROM stint_import_state WHERE tbl = $1', [name]).catch(() => undefined);
  });
  await drop();
  try {
    return await work(name);
  } finally {
    await drop();
  }
}

function ratio(label: string, rounds: Rounds, stint: string, other: string, what: string): Figure[] {
  const of = (name: string, key: 'cpuMs' | 'wallMs') => median(rounds.runs[name]!.map((run) => run[key]));
  const runs = (name: string) => rounds.runs[name]!.map((run) => (run.wallMs / 1000).toFixed(1)).join(', ');
  return [
    ...[stint, other].map((name) => ({
      suite: 'databases', name: `${label}: ${name}, wall`, value: of(name, 'wallMs') / 1000, unit: 's',
      detail: `CPU ${(of(name, 'cpuMs') / 1000).toFixed(1)} s (the client process); runs ${runs(name)} s wall`,
    })),
    {
      suite: 'databases', name: `${label}: ${stint} / ${what} (wall)`, unit: 'x', target: '<= 1.25',
      value: of(stint, 'wallMs') / of(other, 'wallMs'),
      detail: `throughput ${(of(other, 'wallMs') / of(stint, 'wallMs')).toFixed(2)} of the loader's (target >= 0.8); `
        + `CPU ${(of(stint, 'cpuMs') / of(other, 'cpuMs')).toFixed(2)}x; ${ROUNDS} rounds, alternating; ${rounds.load}`,
    },
  ];
}

async function sqliteFigures(csv: string, label: string): Promise<Figure[]> {
  if (spawnSync('sqlite3', ['--version']).status !== 0) {
    console.error('no sqlite3 command (apt-get install sqlite3): the SQLite comparison is skipped');
    return [];
  }
  const stint = (db: string) => stintImport([csv, '--into', `sqlite:${db}`, '--table', 't']);
  const sqlite3 = (db: string) => underGnuTime([db, '-cmd', '.mode csv', `.import ${csv} t`], {}, 'sqlite3');
  const steps: Step[] = [
    ['stint --into sqlite:', () => onSqlite('stint-sqlite', stint)],
    ['sqlite3 .import', () => onSqlite('sqlite3', sqlite3)],
  ];
  return ratio(label, await alternatingRounds(steps, ROUNDS), steps[0]![0], steps[1]![0], 'sqlite3 .import');
}

async function duckdbFigures(csv: string, label: string): Promise<Figure[]> {
  const duck = await loadDuckDb(REPO_ROOT);
  if (!duck) {
    console.error('no @duckdb/node-api in bench/node_modules (npm --prefix bench ci): the DuckDB comparison is skipped');
    return [];
  }
  const onDuckDb = (name: string, work: (path: string) => Promise<ProcessCost>) => onSqlite(`${name}.duckdb`, work);
  const steps: Step[] = [
    ['stint --into duckdb:', () => onDuckDb('stint-duckdb', (db) => stintImport([csv, '--into', `duckdb:${db}`,
      '--table', 't']))],
    ['DuckDB CREATE TABLE AS', () => onDuckDb('duckdb', (db) => inThisProcess(() => duckDbLoad(duck, csv, db, 2)))],
  ];
  return ratio(label, await alternatingRounds(steps, ROUNDS), steps[0]![0], steps[1]![0], 'DuckDB CREATE TABLE AS');
}

/**
 * The bytes up to the last line end outside quotes: whole records (a quoted field may hold a line end, and a
 * record cut there is a bad row, which made the sample's import PARTIAL now and then).
 */
function wholeRecords(head: Buffer): Buffer {
  let quoted = false;
  let end = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] === 0x22) quoted = !quoted;
    else if (head[i] === 0x0a && !quoted) end = i + 1;
  }
  return head.subarray(0, end);
}

async function postgresFigures(csv: string, label: string): Promise<Figure[]> {
  const missing = postgresMissing();
  if (missing) {
    console.error(`${missing}: the PostgreSQL comparison is skipped`);
    return [];
  }
  const server = await startPostgres();
  try {
    // psql loads into a table of the types stint infers: the template is a table stint made from the same file.
    const head = spawnSync('head', ['-c', String(8 << 20), csv], { maxBuffer: 16 << 20 }).stdout;
    const sample = join(WORK, `types-${process.pid}.csv`);
    writeFileSync(sample, wholeRecords(head));
    await stintImport([sample, '--into', server.url, '--table', TEMPLATE]);
    rmSync(sample, { force: true });
    const copy = (table: string) => withPostgres(server.url, (client) =>
      client.query(`CREATE TABLE "${table}" (LIKE ${TEMPLATE})`)).then(() => underGnuTime(
      [server.url, '-c', `\\copy "${table}" FROM '${csv}' CSV HEADER`], {}, 'psql'));
    const steps: Step[] = [
      ['stint --into postgres://', () => onTable(server, 'stint_t', (table) =>
        stintImport([csv, '--into', server.url, '--table', table]))],
      ['psql \\copy', () => onTable(server, 'psql_t', copy)],
    ];
    return ratio(label, await alternatingRounds(steps, ROUNDS), steps[0]![0], steps[1]![0], 'psql \\copy');
  } finally {
    await server.stop();
  }
}

/** The big file into SQLite, DuckDB and PostgreSQL, each against its own loader. */
export async function databaseFigures(gib: number): Promise<Figure[]> {
  const big = dataFile('big', Math.round(gib * 1024 ** 3));
  const label = `import ${(statSync(big).size / 1e6).toFixed(0)} MB`;
  return [...await sqliteFigures(big, label), ...await duckdbFigures(big, label), ...await postgresFigures(big, label)];
}
