// Issue 13's benchmark line: analyze with the added statistics against DuckDB
// SUMMARIZE (same file, same threads) and against a build without them
// (STINT_BASELINE_BIN: that build's bin/stint.js), with peak RSS. The file is
// written to the temporary folder and removed after.
//   node build/bench/stats-cost.js [GiB=1] [rounds=1]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBigCsv } from '../test/helpers/big-csv.js';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { duckDbSummarize, loadDuckDb } from './duckdb-baseline.js';
import { median, timeCommand } from './measure.js';

const THREADS = 2;
const [gib = '1', rounds = '1'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'stint-stats-cost-'));
const file = join(dir, 'big.csv');

async function analyze(bin: string): Promise<{ ms: number; rssMiB: number }> {
  const home = mkdtempSync(join(dir, 'home-'));
  const run = await timeCommand(process.execPath, [bin, 'analyze', file, '--budget', '0', '--workers', String(THREADS)],
    { STINT_HOME: home }, true);
  if (run.code !== 0) throw new Error(`analyze failed: ${run.stdout.slice(0, 300)}`);
  return { ms: run.ms, rssMiB: (run.peakRssKiB ?? 0) / 1024 };
}

async function main(): Promise<void> {
  const bytes = writeBigCsv(file, Number(gib) * 1024 ** 3, 42);
  const duck = await loadDuckDb(REPO_ROOT);
  const runs: Record<string, { ms: number; rssMiB: number }[]> = { stint: [], baseline: [], summarize: [] };
  for (let r = 0; r < Number(rounds); r++) {
    runs['stint']!.push(await analyze(STINT_BIN));
    if (duck) {
      const started = performance.now();
      await duckDbSummarize(duck, file, THREADS);
      runs['summarize']!.push({ ms: performance.now() - started, rssMiB: 0 });
    }
    if (process.env['STINT_BASELINE_BIN']) runs['baseline']!.push(await analyze(process.env['STINT_BASELINE_BIN']));
  }
  const ms = (name: string) => median(runs[name]!.map((run) => run.ms));
  console.log(JSON.stringify({
    bytes, threads: THREADS, runs,
    summarize_over_stint: runs['summarize']!.length ? ms('summarize') / ms('stint') : null,
    stint_over_baseline: runs['baseline']!.length ? ms('stint') / ms('baseline') : null,
    peak_rss_mib: Math.max(...runs['stint']!.map((run) => run.rssMiB)),
  }, null, 1));
}

await main().finally(() => rmSync(dir, { recursive: true, force: true }));
