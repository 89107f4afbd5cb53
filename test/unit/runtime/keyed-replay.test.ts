import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExitCode } from '../../../src/contract/exit-code.js';
import { earlierAnswer, keepAnswer, NOOP_EFFECT } from '../../../src/runtime/program/keyed-replay.js';

const stateRoot = mkdtempSync(join(tmpdir(), 'stint-keyed-replay-'));
/** A writer's call as keyed-replay.ts sees it. */
const call = (flags: Record<string, unknown>, argumentsDigest = 'args-1', given = true) => ({
  command: { id: 'write', spec: {} },
  flags,
  options: { idempotencyKey: 'k-1', idempotencyKeyGiven: given },
  stateRoot,
  argumentsDigest,
}) as unknown as Parameters<typeof earlierAnswer>[0];
const success = { exitCode: ExitCode.SUCCESS, data: { written: 3 } };

test('a --dry-run is neither kept nor answered from the key: the real call under the same key still runs', () => {
  keepAnswer(call({ 'dry-run': true }, 'args-dry'), { exitCode: ExitCode.SUCCESS, data: { would_write: 3 } });
  assert.equal(earlierAnswer(call({})), undefined, 'nothing kept by the preview');
  keepAnswer(call({}), success);
  assert.equal(earlierAnswer(call({ 'dry-run': true }, 'args-dry')), undefined, 'a preview is never replayed');
  const replay = earlierAnswer(call({}))!;
  const noop = { written: 3, effect: NOOP_EFFECT };
  assert.deepEqual(replay, { exitCode: ExitCode.SUCCESS, data: noop, meta: { idempotency_hit: true } });
  assert.equal(earlierAnswer(call({}, 'args-2'))!.exitCode, ExitCode.CONFLICT, 'the key with other arguments');
  assert.equal(earlierAnswer(call({}, 'args-1', false)), undefined, 'a derived key never replays');
});
