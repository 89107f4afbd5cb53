// Issue 13's benchmark line: analyze with the added statistics against DuckDB
// SUMMARIZE (same file, same threads) and against a build without them
// (STINT_BASELINE_BIN: that build's bin/stint.js), with peak RSS. Each round
// runs ABBA (analyze, SUMMARIZE, baseline, baseline, SUMMARIZE, analyze) so a
// machine whose load drifts favours neither; wall and CPU time (user + system,
// every thread) are both reported, with the load average before and after.
// The file is written to the temporary folder and removed after, unless
// STINT_STATS_FILE names one to use (and keep).
//   node build/bench/stats-cost.js [GiB=1] [rounds=1]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBigCsv } from '../test/helpers/big-csv.js';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { duckDbSummarize, loadDuckDb } from './duckdb-baseline.js';
import { inThisProcess, median, underGnuTime } from './measure.js';

const THREADS = 2;
const [gib = '1', rounds = '1'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'stint-stats-cost-'));
const file = process.env['STINT_STATS_FILE'] ?? join(dir, 'big.csv');

interface Run {
  readonly ms: number;
  readonly cpuMs: number;
  readonly rssMiB: number;
}

/** One analyze under GNU time: wall, user + system and peak RSS of the whole process. */
async function analyze(bin: string): Promise<Run> {
  const home = mkdtempSync(join(dir, 'home-'));
  const args = [bin, 'analyze', file, '--budget', '0', '--workers', String(THREADS)];
  const cost = await underGnuTime(args, { STINT_HOME: home });
  return { ms: cost.wallMs, cpuMs: cost.cpuMs, rssMiB: cost.rssMiB };
}

type Duck = NonNullable<Awaited<ReturnType<typeof loadDuckDb>>>;

/** SUMMARIZE in this process: its CPU time is this process's over the call. */
async function summarize(duck: Duck): Promise<Run> {
  const cost = await inThisProcess(() => duckDbSummarize(duck, file, THREADS));
  return { ms: cost.wallMs, cpuMs: cost.cpuMs, rssMiB: 0 };
}

async function main(): Promise<void> {
  const bytes = process.env['STINT_STATS_FILE'] ? statSync(file).size : writeBigCsv(file, Number(gib) * 1024 ** 3, 42);
  const duck = await loadDuckDb(REPO_ROOT);
  const baseline = process.env['STINT_BASELINE_BIN'];
  const runs: Record<string, Run[]> = { stint: [], baseline: [], summarize: [] };
  const load = [loadavg()];
  for (let r = 0; r < Number(rounds); r++) {
    runs['stint']!.push(await analyze(STINT_BIN));
    if (duck) runs['summarize']!.push(await summarize(duck));
    if (baseline) runs['baseline']!.push(await analyze(baseline), await analyze(baseline));
    if (duck) runs['summarize']!.push(await summarize(duck));
    runs['stint']!.push(await analyze(STINT_BIN));
  }
  load.push(loadavg());
  const of = (name: string, key: 'ms' | 'cpuMs') => median(runs[name]!.map((run) => run[key]));
  const ratio = (a: string, b: string, key: 'ms' | 'cpuMs') =>
    (runs[a]!.length && runs[b]!.length ? of(a, key) / of(b, key) : null);
  console.log(JSON.stringify({
    bytes, threads: THREADS, load_average: load, runs,
    summarize_over_stint: ratio('summarize', 'stint', 'ms'),
    summarize_over_stint_cpu: ratio('summarize', 'stint', 'cpuMs'),
    stint_over_baseline: ratio('stint', 'baseline', 'ms'),
    stint_over_baseline_cpu: ratio('stint', 'baseline', 'cpuMs'),
    peak_rss_mib: Math.max(...runs['stint']!.map((run) => run.rssMiB)),
    baseline_peak_rss_mib: runs['baseline']!.length ? Math.max(...runs['baseline']!.map((run) => run.rssMiB)) : null,
  }, null, 1));
}

await main().finally(() => rmSync(dir, { recursive: true, force: true }));
