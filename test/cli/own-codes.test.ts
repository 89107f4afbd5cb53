import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { runJson } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

// own-codes is a program built on stint that declares ROW_REJECTED (exit 4), LEDGER_BUSY (exit 12, retryable)
// and the warning ROW_SKIPPED; its `check` reads a file on the main thread, its `scan` on the worker pool.
const world = tempWorld('own-codes');
const program = programPath('own-codes');

function fileWith(name: string, lines: readonly string[]): string {
  const path = world.path(name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

test('a handler\'s own code reaches the envelope with its declared exit code and retryability', async () => {
  const rejected = await runJson(['check', fileWith('reject.txt', ['fine', 'reject'])], { program });
  assert.equal(rejected.envelope.meta.exit_code, 4);
  assert.equal(rejected.envelope.error!.code, 'ROW_REJECTED');
  assert.equal(rejected.envelope.error!.retryable, false);
  assert.deepEqual(rejected.envelope.error!.context, { line: 2 });

  const busy = await runJson(['check', fileWith('busy.txt', ['busy'])], { program });
  assert.equal(busy.envelope.meta.exit_code, 12);
  assert.equal(busy.envelope.error!.code, 'LEDGER_BUSY');
  assert.equal(busy.envelope.error!.retryable, true, 'the declaration gives the retryability');
});

test('a declared warning code goes out with the result', async () => {
  const { envelope } = await runJson(['check', fileWith('skip.txt', ['skip'])], { program });
  assert.equal(envelope.meta.exit_code, 0);
  assert.deepEqual(envelope.warnings.map((w) => w.code), ['ROW_SKIPPED']);
});

test('a code its program does not declare is refused: UNDECLARED_ERROR_CODE, exit 1', async () => {
  const { envelope } = await runJson(['check', fileWith('stray.txt', ['stray'])], { program });
  assert.equal(envelope.meta.exit_code, 1);
  assert.equal(envelope.error!.code, 'UNDECLARED_ERROR_CODE');
  assert.match(envelope.error!.message, /STRAY_CODE/);
  const context = envelope.error!.context as { attempted_error: { code: string } };
  assert.equal(context.attempted_error.code, 'STRAY_CODE');
});

test('a declared code under another exit than its own is refused too', async () => {
  const { envelope } = await runJson(['check', fileWith('misfiled.txt', ['misfiled'])], { program });
  assert.equal(envelope.meta.exit_code, 1);
  assert.equal(envelope.error!.code, 'UNDECLARED_ERROR_CODE');
  assert.deepEqual(envelope.error!.context, {
    attempted_exit_code: 12,
    attempted_error: { code: 'ROW_REJECTED', message: 'under another exit' },
    declared_exit_code: 4,
  });
});

test('a warning code its program does not declare is refused: UNDECLARED_WARNING_CODE, exit 1', async () => {
  const { envelope } = await runJson(['check', fileWith('stray-warning.txt', ['stray-warning'])], { program });
  assert.equal(envelope.meta.exit_code, 1);
  assert.equal(envelope.error!.code, 'UNDECLARED_WARNING_CODE');
  assert.match(envelope.error!.message, /STRAY_WARNING/);
});

test('a code thrown by the map module on a worker thread comes back with its declared exit code', async () => {
  const lines = Array.from({ length: 50 }, (_, k) => (k === 41 ? 'reject' : `line ${k + 1}`));
  const { envelope } = await runJson(['scan', fileWith('scan.txt', lines), '--budget', '0'], { program });
  assert.equal(envelope.meta.exit_code, 4);
  assert.equal(envelope.error!.code, 'ROW_REJECTED');
  assert.deepEqual(envelope.error!.context, { line: 42 });
  const clean = await runJson(['scan', fileWith('clean.txt', ['a', 'b']), '--budget', '0'], { program });
  assert.deepEqual(clean.envelope.data, { lines: 2 });
});

test('the manifest lists the program\'s own code under the exit code it is declared with', async () => {
  const { envelope } = await runJson(['manifest'], { program });
  type Entry = { exit_codes: Record<string, { error_codes?: string[] }> };
  const commands = (envelope.data as { commands: Record<string, Entry> }).commands;
  assert.deepEqual(commands['check']!.exit_codes['4']!.error_codes, ['ROW_REJECTED']);
  // scan takes --queue: the framework lists its QUEUE_CLIENT_MISSING (bullmq and ioredis not installed) beside.
  assert.deepEqual(commands['scan']!.exit_codes['4']!.error_codes, ['ROW_REJECTED', 'QUEUE_CLIENT_MISSING']);
});
