import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { runJson } from './run-cli.js';

/** A CSV file's records, by csv-parse (the reference reader). */
export const csvFileRecords = (path: string): string[][] =>
  parse(readFileSync(path, 'utf8'), { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];

/**
 * A table's rows as `stint export` writes them to `out` (with no budget: an
 * export is interruptible too, and the check must read the whole table).
 */
export async function tableRecords(db: string, out: string, env: Record<string, string>): Promise<string[][]> {
  const { run } = await runJson(['export', db, '--output', out, '--budget', '0'], { env });
  assert.equal(run.code, 0, run.stdout);
  return csvFileRecords(out);
}
