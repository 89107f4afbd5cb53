// Every shape of file of issue 24: `stint analyze` of the narrow 1 GiB file, a 300 MB one of quoted fields with
// CRLF line ends and a BOM, and a 200-, a 2,000- and a 10,000-column CSV, every statistic against DuckDB's
// SUMMARIZE and polars' describe, `--stats basic` against DuckDB's plain aggregates (count, min, max, sum, avg),
// same 2 threads.
// Each round runs stint all, SUMMARIZE, stint basic, aggregates, then the same backwards, so a machine whose load
// drifts favours neither; CPU time is the whole process's (user + system, every thread: stint's from GNU time,
// DuckDB's from this process, where it runs), beside wall time and stint's peak RSS.
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { writeMixedCsv } from '../test/helpers/mixed-csv.js';
import { dataFile } from './suites.js';
import { duckDbStats, duckDbSummarize, loadDuckDb } from './duckdb-baseline.js';
import { loadPolars, polarsDescribe } from './polars-baseline.js';
import { alternatingRounds, inThisProcess, median, underGnuTime } from './measure.js';
import type { Figure, ProcessCost, Step } from './measure.js';

const WORK = join(tmpdir(), 'stint-bench');
const THREADS = 2;
const ROUNDS = Number(process.env['BENCH_WIDE_ROUNDS'] ?? 2);

/** Column k's value in row r: integers, decimals, words, dates, integers with empties, booleans (a seeded LCG). */
function rowOf(r: number, columns: number, next: () => number): string {
  const fields: string[] = [];
  for (let k = 0; k < columns; k++) {
    const kind = k % 6;
    const u = next();
    if (kind === 0) fields.push(String(Math.floor(u * 100_000)));
    else if (kind === 1) fields.push((u * 1000).toFixed(2));
    else if (kind === 2) fields.push(`w${Math.floor(u * 500)}`);
    else if (kind === 3) fields.push(`20${10 + (r % 15)}-0${1 + (r % 9)}-1${Math.floor(u * 10)}`);
    else if (kind === 4) fields.push(u < 0.1 ? '' : String(r));
    else fields.push(u < 0.5 ? 'true' : 'false');
  }
  return fields.join(',');
}

/** A CSV of `columns` columns and about `bytes` bytes, kept between runs (same seed, same bytes). */
export async function wideFile(columns: number, bytes: number): Promise<string> {
  mkdirSync(WORK, { recursive: true });
  const path = join(WORK, `wide-${columns}-${bytes}.csv`);
  if (existsSync(path)) return path;
  console.error(`generating ${path}`);
  let seed = 42;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const part = `${path}.part`;
  const out = createWriteStream(part);
  let written = 0;
  const header = `${Array.from({ length: columns }, (_, k) => `c${k}`).join(',')}\n`;
  out.write(header);
  written += header.length;
  for (let r = 0; written < bytes; r++) {
    const line = `${rowOf(r, columns, next)}\n`;
    written += line.length;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  renameSync(part, path);
  return path;
}

/** The 300 MB file of quoted fields (commas, doubled quotes, line breaks), CRLF line ends and a BOM. */
function quotedFile(bytes: number): string {
  mkdirSync(WORK, { recursive: true });
  const path = join(WORK, `quoted-bom-${bytes}.csv`);
  if (existsSync(path)) return path;
  console.error(`generating ${path}`);
  writeMixedCsv(`${path}.part`, bytes, 7, true);
  renameSync(`${path}.part`, path);
  return path;
}

/** One `stint analyze` under GNU time. */
function stint(path: string, stats: string): Promise<ProcessCost> {
  const home = join(WORK, 'state', `wide-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  const args = [STINT_BIN, 'analyze', path, '--stats', stats, '--budget', '0', '--workers', String(THREADS)];
  return underGnuTime(args, { STINT_HOME: home });
}

/** A shape of file and issue 24's targets for it: stint all / SUMMARIZE, and the peak RSS of `--stats all`. */
interface Shape {
  readonly label: string;
  readonly path: string;
  readonly summarize: string;
  readonly rssMB?: number;
}

/** The figures of one file: medians of each side, and the ratios stint / DuckDB (below 1: stint ahead). */
async function shapeFigures({ label, path, summarize, rssMB }: Shape): Promise<Figure[]> {
  const duck = await loadDuckDb(REPO_ROOT);
  const polars = loadPolars(REPO_ROOT, THREADS);
  const steps: Step[] = [['all', () => stint(path, 'all')], ['basic', () => stint(path, 'basic')]];
  if (duck) {
    steps.splice(1, 0, ['summarize', () => inThisProcess(() => duckDbSummarize(duck, path, THREADS))]);
    steps.push(['aggregates', () => inThisProcess(() => duckDbStats(duck, path, THREADS))]);
  }
  if (polars) steps.splice(1, 0, ['describe', () => inThisProcess(async () => polarsDescribe(polars, path))]);
  else console.error('nodejs-polars is not installed (npm --prefix bench ci): the suite has no polars baseline');
  if (!duck) console.error('DuckDB is not installed (npm --prefix bench ci): the wide suite has no baseline');
  const { runs, load } = await alternatingRounds(steps, ROUNDS);
  const of = (name: string, key: 'cpuMs' | 'wallMs') => median(runs[name]!.map((run) => run[key]));
  const rss = (name: string) => Math.max(...runs[name]!.map((run) => run.rssMiB ?? 0));
  const figure = (name: string, value: number, unit: string, target?: string, detail?: string): Figure => ({
    suite: 'wide', name: `${label}: ${name}`, value, unit, ...(target ? { target } : {}), ...(detail ? { detail } : {}),
  });
  const side = (name: string, what: string) => {
    const memory = runs[name]![0]!.rssMiB ? `, peak RSS ${rss(name).toFixed(0)} MiB` : '';
    return figure(`${what}, CPU`, of(name, 'cpuMs') / 1000, 's', undefined,
      `wall ${(of(name, 'wallMs') / 1000).toFixed(1)} s${memory}`);
  };
  const figures = [side('all', 'stint --stats all'), side('basic', 'stint --stats basic')];
  if (rssMB) {
    const mb = (name: string) => rss(name) * 1.048576;
    figures.push(figure('peak RSS, stint --stats all', mb('all'), 'MB', `< ${rssMB}`,
      `--stats basic ${mb('basic').toFixed(0)} MB; the largest of ${ROUNDS} runs`));
  }
  const cpuRatio = (a: string, b: string) => of(a, 'cpuMs') / of(b, 'cpuMs');
  const wallRatio = (a: string, b: string) => (of(a, 'wallMs') / of(b, 'wallMs')).toFixed(2);
  if (polars) {
    const detail = `wall ${wallRatio('all', 'describe')}x; ${ROUNDS} rounds, alternating`;
    figures.push(side('describe', 'polars describe'),
      figure('stint all / polars describe (CPU)', cpuRatio('all', 'describe'), 'x', '<= 1.0', detail));
  }
  if (!duck) return figures;
  figures.push(
    side('summarize', 'DuckDB SUMMARIZE'),
    side('aggregates', 'DuckDB plain aggregates'),
    figure('stint all / SUMMARIZE (CPU)', cpuRatio('all', 'summarize'), 'x', `<= ${summarize}`,
      `wall ${wallRatio('all', 'summarize')}x; ${ROUNDS} rounds, alternating; ${load}`),
    figure('stint basic / plain aggregates (CPU)', cpuRatio('basic', 'aggregates'), 'x', '<= 1.0',
      `wall ${wallRatio('basic', 'aggregates')}x`),
  );
  return figures;
}

export async function wideSuite(gib: number): Promise<Figure[]> {
  const shapes: Shape[] = [
    { label: `narrow, ${gib} GiB`, path: dataFile('big', Math.round(gib * 1024 ** 3)), summarize: '0.5' },
    { label: 'quoted, CRLF, BOM, 300 MB', path: quotedFile(300e6), summarize: '0.5' },
    { label: '200 columns, 300 MB', path: await wideFile(200, 300e6), summarize: '1.0' },
    { label: '2000 columns, 53 MB', path: await wideFile(2000, 53e6), summarize: '1.0', rssMB: 400 },
    { label: '10000 columns, 39 MB', path: await wideFile(10_000, 39e6), summarize: '1.0', rssMB: 600 },
  ];
  const figures: Figure[] = [];
  for (const shape of shapes) figures.push(...await shapeFigures(shape));
  return figures;
}
