import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { envelopeOf, runJson, runShell } from '../helpers/run-cli.js';
import { REPO_ROOT, fixturePath, programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { generateCsv } from '../helpers/csv-generator.js';

const world = tempWorld('author');
const readme = readFileSync(`${REPO_ROOT}/README.md`, 'utf8');

test('the README shows the example program and its map module verbatim', () => {
  for (const file of ['wc.ts', 'wc-map.ts']) {
    const source = readFileSync(fixturePath('programs', file), 'utf8');
    assert.ok(readme.includes(`\`\`\`ts\n${source}\`\`\``), `README shows fixtures/programs/${file}`);
  }
});

test('the example counts like wc, and an interrupted count continues to the same answer', async () => {
  const path = world.path('text.csv');
  const bytes = generateCsv(3, { rows: 150_000, columns: 5, newlines: 0.02 });
  writeFileSync(path, bytes);
  const text = bytes.toString('latin1');
  const expected = { lines: (text.match(/\n/g) ?? []).length, words: (text.match(/[^ \t\r\n]+/g) ?? []).length, bytes: bytes.length };

  const whole = await runJson(['count', path, '--budget', '0'], { program: programPath('wc'), env: { STINT_HOME: world.path('h1') } });
  assert.deepEqual(whole.envelope.data, expected);

  const env = { STINT_HOME: world.path('h2'), AGENT_CALL_BUDGET_MS: '150', STINT_TEST_MODE: '1' };
  let { envelope } = await runJson(['count', path], { program: programPath('wc'), env });
  while (envelope.meta.exit_code === 14) {
    const line = (envelope.data as { continue_command: string }).continue_command;
    envelope = envelopeOf(await runShell(line, env));
  }
  assert.deepEqual(envelope.data, expected);
});
