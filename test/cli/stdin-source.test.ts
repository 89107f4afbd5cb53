import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envelopeOf, runJson, runShell } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('stdin-source');
const program = programPath('wc-stdin');

/** 60 chunks of 4 KiB at 50 ms a chunk: 3 s of work at least, so a 1 s budget always stops the first call. */
const text = Array.from({ length: 6000 }, (_, k) => `line ${k} holds ${k % 7} words and more`).join('\n') + '\n';
const expected = { lines: 6000, words: (text.match(/[^ \t\r\n]+/g) ?? []).length, bytes: Buffer.byteLength(text) };

test('stdin piped in, stopped by the budget, continued from its kept spool to the uninterrupted answer', async () => {
  const whole = await runJson(['count', '--budget', '0'], { program, env: { STINT_HOME: world.path('1') }, stdin: text });
  assert.deepEqual(whole.envelope.data, expected);

  const env = { STINT_HOME: world.path('2'), AGENT_CALL_BUDGET_MS: '1000', STINT_TEST_MODE: '1' };
  let { envelope } = await runJson(['count', '--pause-ms', '50'], { program, env, stdin: text });
  assert.equal(envelope.meta.exit_code, 14, 'the budget stops the first call');
  let calls = 1;
  let done = 0;
  while (envelope.meta.exit_code === 14) {
    const data = envelope.data as { continue_command: string; progress: { done: number } };
    assert.ok(data.progress.done >= done, 'progress never goes back');
    done = data.progress.done;
    assert.match(data.continue_command, / < \S+stdin'?$/, 'the continuation reads the kept spool');
    // Each continuation has a fresh 1 s budget for 3 s of work: only one that resumes ever gets to the end.
    assert.ok(++calls < 60, 'the continuations end');
    envelope = envelopeOf(await runShell(data.continue_command, env));
  }
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  assert.deepEqual(envelope.data, expected);
});
