import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { runJson } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { CrashMode } from '../../fixtures/programs/crash-map.js';

const world = tempWorld('worker-death');
const lines = Array.from({ length: 6000 }, (_, i) => `line ${i} has ${'some words '.repeat(i % 7)}in it\n`);
const text = lines.join('');
const input = world.path('text.txt');
writeFileSync(input, text);
const expected = { lines: 6000, words: (text.match(/[^ \t\r\n]+/g) ?? []).length, bytes: Buffer.byteLength(text) };

/** Two identical calls: one while the fault holds (a worker dies past a third of the file), one after. */
async function twoCalls(mode: CrashMode) {
  const fault = world.path(`fault-${mode}`);
  writeFileSync(fault, '');
  const env = {
    STINT_HOME: world.path(`home-${mode}`),
    STINT_CHECKPOINT_INTERVAL_MS: '0',
    CRASH_TOOL_WHILE: fault,
    CRASH_TOOL_AFTER: String(Math.floor(expected.bytes / 3)),
    CRASH_TOOL_MODE: mode,
  };
  const args = ['count', input, '--budget', '0'];
  const first = await runJson(args, { program: programPath('crash-tool'), env });
  rmSync(fault);
  const second = await runJson(args, { program: programPath('crash-tool'), env });
  return { first: first.envelope, second: second.envelope };
}

for (const mode of [CrashMode.Exit, CrashMode.Uncaught]) {
  test(`a worker that dies (${mode}) answers WORKER_FAILED, retryable, and the identical call resumes`, async () => {
    const { first, second } = await twoCalls(mode);
    assert.equal(first.meta.exit_code, 1);
    assert.equal(first.error?.code, 'WORKER_FAILED');
    assert.equal(first.error?.retryable, true);
    assert.equal(second.meta.exit_code, 0, JSON.stringify(second.error));
    const { resumed_from: resumedFrom, ...counts } = second.data as Record<string, number>;
    assert.deepEqual(counts, expected);
    assert.ok(resumedFrom! > 0, 'the second call continued from the checkpoint the first one kept');
  });
}

test('a map that throws answers WORKER_FAILED without calling a retry safe, and keeps the checkpoint', async () => {
  const { first, second } = await twoCalls(CrashMode.Throw);
  assert.equal(first.meta.exit_code, 1);
  assert.equal(first.error?.code, 'WORKER_FAILED');
  assert.notEqual(first.error?.retryable, true);
  assert.ok(((second.data as Record<string, number>)['resumed_from'] ?? 0) > 0);
});
