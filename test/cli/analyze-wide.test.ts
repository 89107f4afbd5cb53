// A table thousands of columns wide: every column's statistics are kept in the
// WebAssembly scanner (its per-column records are sized by the rows a chunk
// holds), none handed to the slower JavaScript path, and the answer is right.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { runJson } from '../helpers/run-cli.js';
import { rankError, topValues } from '../helpers/stats-oracle.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('analyze-wide');
const WIDTH = 2000;
/** About 13 MB: several of the chunks analyze sizes for 2,000 columns (a few hundred rows each). */
const ROWS = 1500;

/** Column k's value in row r: integers, words of 40 kinds, or integers with an empty field every 7th row. */
function value(r: number, k: number): string {
  if (k % 3 === 0) return String((r * (k + 1)) % 1009);
  if (k % 3 === 1) return `w${(r + k) % 40}`;
  return r % 7 === 0 ? '' : String(r - k);
}

const columnValues = (k: number) => Array.from({ length: ROWS }, (_, r) => value(r, k));

type Column = Record<string, unknown>;

function assertColumn(column: Column, k: number): void {
  const all = columnValues(k);
  const present = all.filter((v) => v !== '');
  const numeric = k % 3 !== 1;
  const sorted = numeric ? present.map(Number).sort((a, b) => a - b) : [...present].sort();
  const where = `column c${k}`;
  assert.equal(column['name'], `c${k}`);
  assert.equal(column['count'], present.length, where);
  assert.equal(column['nulls'], all.length - present.length, where);
  assert.equal(column['min'], sorted[0], where);
  assert.equal(column['max'], sorted.at(-1), where);
  assert.equal(column['distinct'], new Set(present).size, where);
  assert.equal(column['distinct_exact'], true, where);
  assert.deepEqual(column['top_values'], topValues(present), where);
  if (!numeric) return;
  const bound = column['quartile_rank_error'] as number;
  for (const [key, q] of [['q25', 0.25], ['q50', 0.5], ['q75', 0.75]] as const) {
    assert.ok(rankError(sorted as number[], column[key] as number, q) <= bound, `${where} ${key}`);
  }
}

describe('stint analyze of a 2,000-column file', () => {
  test('every chunk keeps every column in the scanner, and every column is answered right', async () => {
    const names = Array.from({ length: WIDTH }, (_, k) => `c${k}`);
    const rows = Array.from({ length: ROWS }, (_, r) => names.map((_, k) => value(r, k)).join(','));
    writeFileSync(world.path('wide.csv'), `${[names.join(','), ...rows].join('\n')}\n`);
    const paths = world.path('paths.txt');
    writeFileSync(paths, '');
    const env = { STINT_HOME: world.path('home'), STINT_TEST_SCANNER_PATHS: paths };
    const args = ['analyze', 'wide.csv', '--stats', 'all', '--budget', '0'];
    const { run, envelope } = await runJson(args, { env, cwd: world.dir });
    assert.equal(run.code, 0, run.stderr);
    const chunks = readFileSync(paths, 'utf8').trim().split('\n');
    assert.ok(chunks.length > 3, `${chunks.length} chunks`);
    assert.deepEqual(new Set(chunks), new Set([`${WIDTH} ${WIDTH}`]), 'columns, and those the scanner kept');
    const { a } = (envelope.data!['established'] as { a: { columns: Column[] } }[])[0]!;
    assert.equal(a.columns.length, WIDTH);
    a.columns.forEach(assertColumn);
  });
});
