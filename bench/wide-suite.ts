// The wide files of issue 24: `stint analyze` of a 200- and a 2,000-column CSV, every statistic against DuckDB's
// SUMMARIZE and `--stats basic` against DuckDB's plain aggregates (count, min, max, sum, avg), same 2 threads.
// Each round runs stint all, SUMMARIZE, stint basic, aggregates, then the same backwards, so a machine whose load
// drifts favours neither; CPU time is the whole process's (user + system, every thread: stint's from GNU time,
// DuckDB's from this process, where it runs), beside wall time and stint's peak RSS.
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { duckDbStats, duckDbSummarize, loadDuckDb } from './duckdb-baseline.js';
import { median, underGnuTime, type Figure } from './measure.js';

const WORK = join(tmpdir(), 'stint-bench');
const THREADS = 2;
const ROUNDS = Number(process.env['BENCH_WIDE_ROUNDS'] ?? 2);

interface Run {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly rssMiB?: number;
}

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

/** One `stint analyze` under GNU time. */
function stint(path: string, stats: string): Promise<Run> {
  const home = join(WORK, 'state', `wide-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  const args = [STINT_BIN, 'analyze', path, '--stats', stats, '--budget', '0', '--workers', String(THREADS)];
  return underGnuTime(args, { STINT_HOME: home });
}

/** A DuckDB query in this process: its CPU time is this process's over the call. */
async function inProcess(work: () => Promise<unknown>): Promise<Run> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** The figures of one file: medians of each side, and the ratios stint / DuckDB (below 1: stint ahead). */
async function wideFigures(columns: number, bytes: number): Promise<Figure[]> {
  const path = await wideFile(columns, bytes);
  const duck = await loadDuckDb(REPO_ROOT);
  const runs: Record<string, Run[]> = { all: [], basic: [], summarize: [], aggregates: [] };
  type Step = [string, () => Promise<Run>];
  const steps: Step[] = [['all', () => stint(path, 'all')], ['basic', () => stint(path, 'basic')]];
  if (duck) {
    steps.splice(1, 0, ['summarize', () => inProcess(() => duckDbSummarize(duck, path, THREADS))]);
    steps.push(['aggregates', () => inProcess(() => duckDbStats(duck, path, THREADS))]);
  }
  if (!duck) console.error('DuckDB is not installed (npm --prefix bench ci): the wide suite has no baseline');
  const loadBefore = loadavg()[0]!;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of round % 2 ? [...steps].reverse() : steps) runs[name]!.push(await run());
  }
  const load = `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`;
  const of = (name: string, key: 'cpuMs' | 'wallMs') => median(runs[name]!.map((run) => run[key]));
  const rss = (name: string) => Math.max(...runs[name]!.map((run) => run.rssMiB ?? 0));
  const label = `${columns} columns, ${(bytes / 1e6).toFixed(0)} MB`;
  const figure = (name: string, value: number, unit: string, target?: string, detail?: string): Figure => ({
    suite: 'wide', name: `${label}: ${name}`, value, unit, ...(target ? { target } : {}), ...(detail ? { detail } : {}),
  });
  const side = (name: string, what: string) => {
    const memory = runs[name]![0]!.rssMiB ? `, peak RSS ${rss(name).toFixed(0)} MiB` : '';
    return figure(`${what}, CPU`, of(name, 'cpuMs') / 1000, 's', undefined,
      `wall ${(of(name, 'wallMs') / 1000).toFixed(1)} s${memory}`);
  };
  const figures = [side('all', 'stint --stats all'), side('basic', 'stint --stats basic')];
  if (!duck) return figures;
  const cpuRatio = (a: string, b: string) => of(a, 'cpuMs') / of(b, 'cpuMs');
  const wallRatio = (a: string, b: string) => (of(a, 'wallMs') / of(b, 'wallMs')).toFixed(2);
  figures.push(
    side('summarize', 'DuckDB SUMMARIZE'),
    side('aggregates', 'DuckDB plain aggregates'),
    figure('stint all / SUMMARIZE (CPU)', cpuRatio('all', 'summarize'), 'x', '<= 1.0',
      `wall ${wallRatio('all', 'summarize')}x; ${ROUNDS} rounds, alternating; ${load}`),
    figure('stint basic / plain aggregates (CPU)', cpuRatio('basic', 'aggregates'), 'x', '<= 1.0',
      `wall ${wallRatio('basic', 'aggregates')}x`),
  );
  return figures;
}

export async function wideSuite(): Promise<Figure[]> {
  return [...await wideFigures(200, 300e6), ...await wideFigures(2000, 53e6)];
}
