import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { Bench } from 'tinybench';
import { parse } from 'csv-parse/sync';
import { Packr } from 'msgpackr';
import { Level } from 'level';
import { writeBigCsv } from '../src/commands/bench/big-csv.js';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { csvParseStats } from './csv-parse-baseline.js';
import { IMPORT_CHUNK_SIZE } from '../src/commands/engine-flags.js';
import { duckDbStats, loadDuckDb } from './duckdb-baseline.js';
import { jobScaleFigures } from './job-scale.js';
import { mbps, median, timeCommand, underGnuTime, type Figure } from './measure.js';
import { CHECKPOINT_INTERVAL_MS } from '../src/runtime/call/call-checkpoint.js';
import { byteScan } from '../src/commands/bench/byte-scan.js';
import { checkpointWriter } from '../src/commands/bench/checkpoint-write.js';

const WORK = join(tmpdir(), 'stint-bench');
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const workers = 2;

/** A generated CSV, kept between runs (same seed, same bytes). */
export function dataFile(name: string, bytes: number): string {
  mkdirSync(WORK, { recursive: true });
  const path = join(WORK, `${name}-${bytes}.csv`);
  if (!existsSync(path)) {
    console.error(`generating ${path}`);
    writeBigCsv(path, bytes, 42);
  }
  return path;
}

export const home = (name: string) => {
  const dir = join(WORK, 'state', `${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

async function analyzeRun(path: string, env: Record<string, string> = {}, rss = false, extra: string[] = []) {
  const run = await timeCommand(process.execPath, [STINT_BIN, 'analyze', path, '--budget', '0', '--workers', String(workers), ...extra], { STINT_HOME: home('analyze'), ...env }, rss);
  if (run.code !== 0) throw new Error(`analyze failed: ${run.stdout.slice(0, 500)} ${run.stderr.slice(0, 500)}`);
  return run;
}

/** What one checkpoint write of analyze's state costs: the state of a 4 MiB chunk of the file, saved 50 times. */
async function checkpointWriteMs(path: string): Promise<number> {
  const writer = await checkpointWriter(path, home('checkpoint-write'));
  const times: number[] = [];
  try {
    for (let k = 0; k < 50; k++) {
      const t = performance.now();
      await writer.write();
      times.push(performance.now() - t);
    }
  } finally {
    await writer.close();
  }
  return median(times);
}

/** Leaves a checkpoint at `fraction` of the file: run with a checkpoint at every chunk, kill -9 past the mark. */
async function checkpointAt(path: string, fraction: number): Promise<{ state: string; done: number }> {
  const state = home(`ckpt-${fraction}`);
  const size = statSync(path).size;
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, [STINT_BIN, 'analyze', path, '--budget', '0', '--heartbeat-ms', '5'], { env: { ...process.env, STINT_HOME: state, STINT_CHECKPOINT_INTERVAL_MS: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      for (const m of chunk.matchAll(/\[(\d+)\/\d+ bytes/g)) if (Number(m[1]) >= size * fraction) child.kill('SIGKILL');
    });
    child.on('close', () => resolve());
  });
  const first = await firstProgress(path, state, -1);
  return { state, done: first.done };
}

/** Time from start to the first heartbeat whose done exceeds `after` (a resume's first new progress). */
function firstProgress(path: string, state: string, after: number): Promise<{ ms: number; done: number }> {
  const copy = home('resume');
  cpSync(state, copy, { recursive: true });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [STINT_BIN, 'analyze', path, '--budget', '0', '--heartbeat-ms', '1'], { env: { ...process.env, STINT_HOME: copy }, stdio: ['ignore', 'ignore', 'pipe'] });
    let found: { ms: number; done: number } | undefined;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      for (const m of chunk.matchAll(/\[(\d+)\/\d+ bytes/g)) {
        if (!found && Number(m[1]) > after) {
          found = { ms: performance.now() - started, done: Number(m[1]) };
          child.kill('SIGKILL');
        }
      }
    });
    child.on('close', () => (found ? resolve(found) : reject(new Error('no progress seen'))));
  });
}

export async function analyzeSuite(gib: number): Promise<Figure[]> {
  const big = dataFile('big', Math.round(gib * GiB));
  const small = dataFile('small', 100 * MiB);
  const size = statSync(big).size;
  const figures: Figure[] = [];
  const add = (name: string, value: number, unit: string, target?: string, detail?: string) => figures.push({ suite: 'analyze', name, value, unit, ...(target ? { target } : {}), ...(detail ? { detail } : {}) });

  byteScan(big); // warm the page cache for everyone alike
  let t = performance.now();
  byteScan(big);
  const floorMs = performance.now() - t;
  const full = await analyzeRun(big, {}, true);
  const smallRun = await analyzeRun(small, {}, true);
  add(`analyze ${(size / GiB).toFixed(2)} GiB, ${workers} workers`, mbps(size, full.ms), 'MB/s');
  add('byte scan (the floor)', mbps(size, floorMs), 'MB/s');
  add('analyze / byte scan', floorMs / full.ms, 'x', 'report');

  t = performance.now();
  await csvParseStats(big);
  const csvParseMs = performance.now() - t;
  add('csv-parse stream loop, 1 thread', mbps(size, csvParseMs), 'MB/s');
  add('analyze / csv-parse', csvParseMs / full.ms, 'x', '>= 10');

  const duck = await loadDuckDb(REPO_ROOT);
  if (duck) {
    t = performance.now();
    await duckDbStats(duck, big, workers);
    const duckMs = performance.now() - t;
    add(`DuckDB read_csv, ${workers} threads`, mbps(size, duckMs), 'MB/s');
    add('analyze / DuckDB', duckMs / full.ms, 'x', '>= 0.5');
  } else {
    console.error('DuckDB is not installed (npm --prefix bench ci): skipping its baseline');
  }

  // ABBA order, three times, medians, so a machine that speeds up or slows down during the runs
  // favours neither side; the page cache is warmed first (DuckDB's run may have evicted the file).
  const on: number[] = [];
  const off: number[] = [];
  const withCheckpoints = async () => on.push((await analyzeRun(big)).ms);
  const without = async () => off.push((await analyzeRun(big, { STINT_CHECKPOINT_INTERVAL_MS: String(1e15) })).ms);
  byteScan(big);
  for (let round = 0; round < 3; round++) for (const run of [withCheckpoints, without, without, withCheckpoints]) await run();
  add('checkpoints on / off (time)', median(on) / median(off), 'x', '<= 1.02', `on ${on.map((m) => m.toFixed(0)).join(',')} ms, off ${off.map((m) => m.toFixed(0)).join(',')} ms`);
  // The same cost measured directly, free of run-to-run noise: one checkpoint write of analyze's
  // state, times the writes a run makes (one per interval), over the run's time.
  const writeMs = await checkpointWriteMs(big);
  const writes = Math.ceil(median(off) / CHECKPOINT_INTERVAL_MS);
  add('checkpoint write, analyze state (median of 50)', writeMs, 'ms');
  add('checkpoint writes / run time', (writes * writeMs) / median(off), 'x', '<= 0.02', `${writes} writes of ${writeMs.toFixed(2)} ms in ${median(off).toFixed(0)} ms`);

  const at10 = await checkpointAt(big, 0.1);
  const at90 = await checkpointAt(big, 0.9);
  const r10: number[] = [];
  const r90: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    r10.push((await firstProgress(big, at10.state, at10.done)).ms);
    r90.push((await firstProgress(big, at90.state, at90.done)).ms);
  }
  add('resume to first new progress: at 90% / at 10%', median(r90) / median(r10), 'x', '<= 1.2', `${median(r10).toFixed(0)} ms vs ${median(r90).toFixed(0)} ms`);

  add(`peak RSS, ${(size / GiB).toFixed(2)} GiB file`, full.peakRssKiB! / 1024, 'MiB', '< 300');
  add('peak RSS, 100 MiB file', smallRun.peakRssKiB! / 1024, 'MiB');
  add('peak RSS big / small', full.peakRssKiB! / smallRun.peakRssKiB!, 'x', '<= 1.3');
  return figures;
}

function startupBench(tasks: Record<string, string[]>): Promise<Record<string, number>> {
  const bench = new Bench({ time: 3000, warmupTime: 300 });
  for (const [name, argv] of Object.entries(tasks)) {
    bench.add(name, () => new Promise<void>((resolve) => spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', env: { ...process.env, STINT_HOME: join(WORK, 'state', 'startup') } }).on('close', () => resolve())));
  }
  return bench.run().then(() => Object.fromEntries(bench.tasks.map((task) => [task.name, (task.result as { latency?: { p50?: number } })?.latency?.p50 ?? NaN])));
}

export async function jobsSuite(gib: number): Promise<Figure[]> {
  const big = dataFile('big', Math.round(gib * GiB));
  const figures: Figure[] = [];
  const add = (name: string, value: number, unit: string, target?: string, detail?: string) => figures.push({ suite: 'jobs', name, value, unit, ...(target ? { target } : {}), ...(detail ? { detail } : {}) });

  const state = join(WORK, 'state', 'startup');
  mkdirSync(state, { recursive: true });
  const small = join(REPO_ROOT, 'fixtures', 'csv', 'cities.csv');
  await timeCommand(process.execPath, [STINT_BIN, 'analyze', small], { STINT_HOME: state });
  const id = readJobId(state);
  const times = await startupBench({
    'node -e 0': [process.execPath, '-e', '0'],
    'stint --version': [process.execPath, STINT_BIN, '--version'],
    'stint job status': [process.execPath, STINT_BIN, 'job', 'status', id],
  });
  const node = times['node -e 0']!;
  add('node -e 0 (median)', node, 'ms');
  add('stint --version / node -e 0', times['stint --version']! / node, 'x', '<= 2', `${times['stint --version']!.toFixed(0)} ms`);
  add('stint job status / node -e 0', times['stint job status']! / node, 'x', '<= 2', `${times['stint job status']!.toFixed(0)} ms`);

  figures.push(await tinyAnalyzeFigure());
  const budget = 1000;
  const overruns: number[] = [];
  for (let rep = 0; rep < 5; rep++) {
    const stateDir = home('expiry');
    const run = await timeCommand(process.execPath, [STINT_BIN, 'analyze', big, '--budget', `${budget}ms`], { STINT_HOME: stateDir });
    const envelope = JSON.parse(run.stdout) as { data: { job_id: string }; meta: { exit_code: number } };
    if (envelope.meta.exit_code !== 14) throw new Error('expected 14');
    overruns.push(run.ms - times['stint --version']! - budget);
    // Cancelled, or it analyzes the file on in the background and slows every suite after this one.
    const cancel = [STINT_BIN, 'job', 'cancel', envelope.data.job_id, '--yes', '--budget', '0'];
    const cancelled = await timeCommand(process.execPath, cancel, { STINT_HOME: stateDir });
    if (cancelled.code !== 0) throw new Error(`job cancel failed: ${cancelled.stdout.slice(0, 300)}`);
  }
  add('budget expiry to exit (median)', median(overruns), 'ms', '< 300', `runs: ${overruns.map((m) => m.toFixed(0)).join(', ')} ms`);
  return figures;
}

/** The CPU time of a whole `stint analyze` of a 100-row file (each call a first call), median of seven. */
async function tinyAnalyzeFigure(): Promise<Figure> {
  const args = [STINT_BIN, 'analyze', dataFile('tiny', 5_150), '--budget', '0'];
  const first = await timeCommand(process.execPath, args, { STINT_HOME: home('tiny') });
  type Answer = { data: { established: [{ a: { rows: number } }] } };
  const rows = (JSON.parse(first.stdout) as Answer).data.established[0].a.rows;
  const cpu: number[] = [];
  for (let run = 0; run < 7; run++) cpu.push((await underGnuTime(args, { STINT_HOME: home('tiny') })).cpuMs);
  const detail = `${rows} rows; runs ${cpu.map((ms) => ms.toFixed(0)).join(', ')} ms`;
  const name = 'analyze of a 100-row file, CPU (median)';
  return { suite: 'jobs', name, value: median(cpu) / 1000, unit: 's', target: '<= 0.2', detail };
}

/** The id of the one job a state folder holds. */
function readJobId(state: string): string {
  const ids = existsSync(join(state, 'jobs')) ? readdirSync(join(state, 'jobs')) : [];
  return ids[0] ?? 'none-00000000';
}

/** The job commands with 10,000 jobs, and the start-up window. */
export const scaleSuite = (): Promise<Figure[]> => jobScaleFigures(join(WORK, 'state'));

export async function importSuite(): Promise<Figure[]> {
  const file = dataFile('import', 100 * MiB);
  const figures: Figure[] = [];
  const add = (name: string, value: number, unit: string, target?: string, detail?: string) => figures.push({ suite: 'import', name, value, unit, ...(target ? { target } : {}), ...(detail ? { detail } : {}) });

  const records = (parse(readFileSync(file), { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][]).slice(1);
  const packr = new Packr({ useRecords: false });
  const packed = records.map((r) => packr.pack(r).slice());
  const bytesPerRow = statSync(file).size / records.length;
  // The same rows per batch as one import chunk commits.
  const perBatch = Math.max(1, Math.round(IMPORT_CHUNK_SIZE / bytesPerRow));
  const raw = async (sync: boolean) => {
    const dir = join(WORK, `raw-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    const db = new Level<string, Uint8Array>(dir, { valueEncoding: 'view' });
    await db.open();
    const t = performance.now();
    for (let i = 0; i < packed.length; i += perBatch) {
      const batch = db.batch();
      for (let j = i; j < Math.min(i + perBatch, packed.length); j++) batch.put(`row:${String(j + 1).padStart(16, '0')}`, packed[j]!);
      await batch.write({ sync });
    }
    const ms = performance.now() - t;
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    return ms;
  };
  const importOf = async (path: string, extra: string[], rss = false) => {
    const db = join(WORK, `import-${process.pid}-${Math.random().toString(36).slice(2, 6)}.db`);
    const result = await timeCommand(process.execPath, [STINT_BIN, 'import', path, '--into', db, '--budget', '0', ...extra], { STINT_HOME: home('import') }, rss);
    rmSync(db, { recursive: true, force: true });
    if (result.code !== 0) throw new Error(`import failed: ${result.stdout.slice(0, 400)}`);
    return result;
  };
  const run = async (extra: string[]) => (await importOf(file, extra)).ms;
  // ABBA order, two runs each, medians: a machine that speeds up or slows down during the runs favours neither side.
  const rawRuns: number[] = [];
  const importRuns: number[] = [];
  const rawRun = async () => rawRuns.push(await raw(true));
  const importRun = async () => importRuns.push(await run([]));
  for (const step of [rawRun, importRun, importRun, rawRun]) await step();
  const rawMs = median(rawRuns);
  const synced = median(importRuns);
  const unsynced = await run(['--no-sync']);
  const rows = records.length;
  const runs = (ms: number[]) => ms.map((m) => (m / 1000).toFixed(2)).join(', ');
  add(`raw chained batch writes, synced (${rows} rows)`, rows / (rawMs / 1000), 'rows/s', undefined, `median of ${runs(rawRuns)} s`);
  add('stint import, synced exactly-once commits', rows / (synced / 1000), 'rows/s', undefined, `median of ${runs(importRuns)} s (whole process)`);
  add('import / raw batch writes', rawMs / synced, 'x', '>= 0.7', `${(IMPORT_CHUNK_SIZE / MiB).toFixed(0)} MiB chunks, ${perBatch} rows per raw batch`);
  add('stint import --no-sync', rows / (unsynced / 1000), 'rows/s', undefined, 'one run');
  add('synced / unsynced import (time)', synced / unsynced, 'x', 'report');
  // Memory levels off with the file's size once LevelDB compacts; 300 MiB is where the target is set.
  const big = dataFile('import', 300 * MiB);
  const peak = (await importOf(big, [], true)).peakRssKiB!;
  add('stint import peak RSS, 300 MiB file', peak / 1024, 'MiB', '< 300', `${(statSync(big).size / 1e6).toFixed(0)} MB, GNU time`);
  return figures;
}
