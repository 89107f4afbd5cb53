import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envelopeOf, runJson, runShell } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { generateCsv } from '../helpers/csv-generator.js';

const world = tempWorld('author');
/** The guide's first example (docs/examples/wc), as the suite built it. */
const WC = join(REPO_ROOT, 'build', 'docs', 'examples', 'wc', 'wc.js');

test('the example counts like wc, and an interrupted count continues to the same answer', async () => {
  const path = world.path('text.csv');
  const bytes = generateCsv(3, { rows: 150_000, columns: 5, newlines: 0.02 });
  writeFileSync(path, bytes);
  const text = bytes.toString('latin1');
  const expected = { lines: (text.match(/\n/g) ?? []).length, words: (text.match(/[^ \t\r\n]+/g) ?? []).length, bytes: bytes.length };

  const whole = await runJson(['count', path, '--budget', '0'], { program: WC, env: { STINT_HOME: world.path('h1') } });
  assert.deepEqual(whole.envelope.data, expected);

  const env = { STINT_HOME: world.path('h2'), AGENT_CALL_BUDGET_MS: '150', STINT_TEST_MODE: '1' };
  let { envelope } = await runJson(['count', path], { program: WC, env });
  while (envelope.meta.exit_code === 14) {
    const line = (envelope.data as { continue_command: string }).continue_command;
    envelope = envelopeOf(await runShell(line, env));
  }
  assert.deepEqual(envelope.data, expected);
});

test('the example answers a directory or a missing file with a declared code, never UNDECLARED_EXIT_CODE', async () => {
  const env = { STINT_HOME: world.path('h3') };
  const folder = await runJson(['count', world.path('.')], { program: WC, env });
  assert.equal(folder.envelope.error?.code, 'NOT_A_FILE');
  assert.equal(folder.run.code, 4);
  const missing = await runJson(['count', world.path('nope.txt')], { program: WC, env });
  assert.equal(missing.envelope.error?.code, 'FILE_NOT_FOUND');
  assert.equal(missing.run.code, 5);
});
