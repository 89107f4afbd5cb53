// polars' `describe` of a CSV (nodejs-polars, in this process): per column count, null count, mean, std, min,
// quartiles and max, as DuckDB's SUMMARIZE and stint's `--stats all` give. A dependency of the benchmark only.
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface Frame { describe(): { height: number } }
interface PolarsModule { readCSV(path: string, options: { hasHeader: boolean }): Frame }

/** nodejs-polars from bench/node_modules on `threads` threads (read once, when it loads), or undefined. */
export function loadPolars(repoRoot: string, threads: number): PolarsModule | undefined {
  process.env['POLARS_MAX_THREADS'] = String(threads);
  try {
    return createRequire(join(repoRoot, 'bench', 'package.json'))('nodejs-polars') as PolarsModule;
  } catch {
    return undefined;
  }
}

/** Reads the whole file into a frame (polars' way: in memory) and describes it. */
export function polarsDescribe(polars: PolarsModule, path: string): { rows: number } {
  return { rows: polars.readCSV(path, { hasHeader: true }).describe().height };
}
