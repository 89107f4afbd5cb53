// docs/reliability.md names, for every fault, the test that proves what
// stint does. This keeps the table in step with the suite: a renamed or
// removed test fails here until the table says what proves the row now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/paths.js';

const table = readFileSync(join(REPO_ROOT, 'docs', 'reliability.md'), 'utf8');
/** A row's last cell: `test/...ts` › "part of a test's name". */
const CITATION = /\| `(test\/[^`]+\.test\.ts)` › "([^"]+)" \|$/;

const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| fault') && !line.startsWith('|---'));

test('every row of the reliability table names a test file and a test', () => {
  assert.ok(rows.length >= 30, `only ${rows.length} rows`);
  const uncited = rows.filter((row) => !CITATION.test(row));
  assert.deepEqual(uncited, []);
});

test('every test the reliability table names exists', () => {
  const missing = rows.flatMap((row) => {
    const [, file, name] = CITATION.exec(row) ?? [];
    if (!file || !name) return [];
    const path = join(REPO_ROOT, file);
    return existsSync(path) && readFileSync(path, 'utf8').includes(name) ? [] : [`${file} › ${name}`];
  });
  assert.deepEqual(missing, []);
});
