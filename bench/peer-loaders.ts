// Import and export against the stores' own loaders (issue 24): `stint import` of the big file into its LevelDB
// table against the Debian `sqlite3` command's `.import` and DuckDB's `CREATE TABLE AS`; `stint export` of a
// 100 MiB table against DuckDB's `COPY TO`. Alternating rounds, medians of CPU time (whole processes under GNU
// time; DuckDB in this process, every thread) beside wall time and the load average.
import { spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { dataFile, home } from './suites.js';
import { duckDbCopyTo, duckDbLoad, loadDuckDb } from './duckdb-baseline.js';
import { alternatingRounds, inThisProcess, median, underGnuTime } from './measure.js';
import type { Figure, ProcessCost, Rounds, Step } from './measure.js';

const WORK = join(tmpdir(), 'stint-bench');
const THREADS = 2;
const ROUNDS = Number(process.env['BENCH_LOADER_ROUNDS'] ?? 2);
const MiB = 1024 ** 2;

/** A fresh path under the bench's folder, removed (with what a database leaves beside it) before use. */
function scratch(name: string): string {
  const path = join(WORK, `${name}-${process.pid}`);
  for (const suffix of ['', '.wal', '-journal']) rmSync(`${path}${suffix}`, { recursive: true, force: true });
  return path;
}

/** Runs `work` on a fresh scratch path and removes it after, so no run finds another's leftovers. */
async function onScratch(name: string, work: (path: string) => Promise<ProcessCost>): Promise<ProcessCost> {
  const path = scratch(name);
  try {
    return await work(path);
  } finally {
    scratch(name);
  }
}

const stintCall = (args: string[]) =>
  underGnuTime([STINT_BIN, ...args, '--budget', '0'], { STINT_HOME: home('loader') });
const hasSqlite3 = () => spawnSync('sqlite3', ['--version']).status === 0;

/** One side of a comparison: its step's name, what the table calls it, its target against stint (the first). */
interface Side {
  readonly name: string;
  readonly what: string;
  readonly target?: string;
}

/** Each side's CPU median, then stint (the first side) against every other, CPU and wall. */
function compared(label: string, rounds: Rounds, sides: readonly Side[]): Figure[] {
  const of = (name: string, key: 'cpuMs' | 'wallMs') => median(rounds.runs[name]!.map((run) => run[key]));
  const runsOf = (name: string) => rounds.runs[name]!.map((run) => (run.cpuMs / 1000).toFixed(1)).join(', ');
  const memory = (name: string) => {
    const rss = rounds.runs[name]![0]!.rssMiB;
    return rss ? `, peak RSS ${rss.toFixed(0)} MiB` : '';
  };
  const figures: Figure[] = sides.map(({ name, what }) => ({
    suite: 'import', name: `${label}: ${what}, CPU`, value: of(name, 'cpuMs') / 1000, unit: 's',
    detail: `wall ${(of(name, 'wallMs') / 1000).toFixed(1)} s${memory(name)}; runs ${runsOf(name)} s CPU`,
  }));
  const [stint, ...others] = sides;
  for (const other of others) {
    const wall = (of(stint!.name, 'wallMs') / of(other.name, 'wallMs')).toFixed(2);
    figures.push({
      suite: 'import', name: `${label}: ${stint!.what} / ${other.what} (CPU)`, unit: 'x',
      value: of(stint!.name, 'cpuMs') / of(other.name, 'cpuMs'), target: other.target ?? 'report',
      detail: `wall ${wall}x; ${ROUNDS} rounds, alternating; ${rounds.load}`,
    });
  }
  return figures;
}

/** `stint import` of the big file against `sqlite3 .import` and DuckDB's `CREATE TABLE AS`. */
async function importFigures(csv: string, label: string): Promise<Figure[]> {
  const duck = await loadDuckDb(REPO_ROOT);
  const stint = (db: string) => stintCall(['import', csv, '--into', db]);
  const steps: Step[] = [['stint', () => onScratch('loader-level', stint)]];
  const sides: Side[] = [{ name: 'stint', what: 'stint import' }];
  if (hasSqlite3()) {
    const sqlite = (db: string) => underGnuTime([db, '-cmd', '.mode csv', `.import ${csv} t`], {}, 'sqlite3');
    steps.push(['sqlite3', () => onScratch('loader-sqlite', sqlite)]);
    sides.push({ name: 'sqlite3', what: 'sqlite3 .import', target: '<= 1.0' });
  } else console.error('no sqlite3 command (apt-get install sqlite3): the import suite has no sqlite3 baseline');
  if (duck) {
    const load = (db: string) => inThisProcess(() => duckDbLoad(duck, csv, db, THREADS));
    steps.push(['duckdb', () => onScratch('loader-duckdb', load)]);
    sides.push({ name: 'duckdb', what: 'DuckDB CREATE TABLE AS' });
  }
  return compared(label, await alternatingRounds(steps, ROUNDS), sides);
}

/** `stint export` of a table imported from `csv` against DuckDB's `COPY TO` of the same rows into a CSV. */
async function exportFigures(csv: string, label: string): Promise<Figure[]> {
  const duck = await loadDuckDb(REPO_ROOT);
  if (!duck) return [];
  const table = scratch('export-table');
  const database = scratch('export-duckdb');
  await stintCall(['import', csv, '--into', table]);
  await duckDbLoad(duck, csv, database, THREADS);
  const stint = (out: string) => stintCall(['export', table, '--output', out]);
  const copy = (out: string) => inThisProcess(() => duckDbCopyTo(duck, database, out, THREADS));
  const steps: Step[] = [
    ['stint', () => onScratch('export-out', stint)],
    ['copy', () => onScratch('export-copy', copy)],
  ];
  const rounds = await alternatingRounds(steps, ROUNDS);
  scratch('export-table');
  scratch('export-duckdb');
  const sides = [{ name: 'stint', what: 'stint export' }, { name: 'copy', what: 'DuckDB COPY TO', target: '<= 1.0' }];
  return compared(label, rounds, sides);
}

/** Import of the big file and export of 100 MiB against the loaders people know. */
export async function loaderFigures(gib: number): Promise<Figure[]> {
  const big = dataFile('big', Math.round(gib * 1024 ** 3));
  const small = dataFile('import', 100 * MiB);
  const mb = (path: string) => `${(statSync(path).size / 1e6).toFixed(0)} MB`;
  return [...await importFigures(big, `import ${mb(big)}`), ...await exportFigures(small, `export ${mb(small)}`)];
}
