import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { programPath, STINT_BIN } from '../helpers/paths.js';
import { runShell } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('follow-terminal');
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

test('a person at a terminal sees one progress line across the continuations, then the answer', async () => {
  const input = world.path('lines.txt');
  writeFileSync(input, Array.from({ length: 3000 }, (_, k) => `line ${k} holds some words`).join('\n') + '\n');
  // 20 chunks at 50 ms each: 1 s of work at least, in calls of 400 ms, so at least one continuation.
  const words = [process.execPath, STINT_BIN, 'follow', '--', process.execPath, programPath('wc-stdin'), 'count'];
  const line = `${words.map(quote).join(' ')} --pause-ms 50 < ${quote(input)}`;
  const env = { STINT_HOME: world.path('home'), AGENT_CALL_BUDGET_MS: '400', NO_COLOR: '1' };
  const run = await runShell(`script -qec ${quote(line)} /dev/null`, env);
  assert.equal(run.code, 0, run.stdout);
  const screen = run.stdout.replace(/\r\n/g, '\n');
  const barLines = screen.split('\n').filter((text) => text.includes('stint follow'));
  assert.equal(barLines.length, 1, `one line, redrawn in place: ${JSON.stringify(screen)}`);
  assert.ok(barLines[0]!.split('\r').filter((frame) => frame.includes('stint follow')).length >= 1);
  assert.match(screen, /lines: 3000/, 'then the answer, as text');
});
