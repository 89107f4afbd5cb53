// A checkpoint is kept only for the inputs it was made from: its fingerprint, saved through the checkpoint codec
// (msgpackr), must compare equal to the same inputs on the next call, and unequal to changed ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WarningCode } from '../../../src/contract/warning-code.js';
import type { WarningDetail } from '../../../src/contract/envelope.js';
import type { Host } from '../../../src/runtime/authoring/host.js';
import { createCallContext } from '../../../src/runtime/call/call-context.js';
import { decodeCheckpoint, encodeCheckpoint, sameFingerprint } from '../../../src/runtime/storage/checkpoint-codec.js';
import { CHECKPOINT_FORMAT, type CheckpointRecord } from '../../../src/runtime/storage/checkpoint-store.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('checkpoint-fingerprint');
const file = { path: '/data/a.csv', size: 10, mtimeMs: 1.5, ino: 7, note: undefined };
/** The same inputs, built with their keys in another order. */
const reordered = { note: undefined, ino: 7, mtimeMs: 1.5, size: 10, path: '/data/a.csv' };
const record = (fingerprint: unknown) => ({
  version: CHECKPOINT_FORMAT, fingerprint, progress: { done: 1, unit: 'bytes' }, state: { n: 1 }, savedAt: 2,
});
const roundTrip = (fingerprint: unknown): unknown =>
  decodeCheckpoint<CheckpointRecord>(encodeCheckpoint(record(fingerprint)), CHECKPOINT_FORMAT).fingerprint;

test('a fingerprint with an undefined field comes back from the codec with that field', () => {
  const back = roundTrip([file]) as [Record<string, unknown>];
  assert.deepStrictEqual(back, [file]);
  assert.ok(Object.hasOwn(back[0], 'note'), 'msgpackr keeps an undefined field');
});

test('the saved fingerprint equals the same inputs whatever their key order, and not changed ones', () => {
  const stored = roundTrip([file]);
  assert.ok(sameFingerprint(stored, [file]));
  assert.ok(sameFingerprint(stored, [reordered]));
  assert.ok(!sameFingerprint(stored, [{ ...file, size: 11 }]));
  assert.ok(!sameFingerprint(stored, [file, file]));
  assert.ok(!sameFingerprint(stored, { ...[file] }), 'an array is not an object with the same keys');
});

test("what msgpackr changes in a fingerprint changes on both sides: -0, a Map, a class's instance", () => {
  class Cursor {
    constructor(readonly page: number) {}
  }
  const inputs = { zero: -0, seen: new Map([['a', 1]]), cursor: new Cursor(3) };
  assert.ok(sameFingerprint(roundTrip(inputs), inputs));
  assert.ok(!sameFingerprint(roundTrip(inputs), { ...inputs, seen: new Map([['a', 2]]) }));
  assert.ok(!sameFingerprint(roundTrip(inputs), { ...inputs, cursor: new Cursor(4) }));
});

test('a checkpoint written by the build before this comparison (its bytes) still matches its inputs', () => {
  // encodeCheckpoint's bytes for record([file]) as the JSON.stringify-comparing build wrote them.
  const bytes = Buffer.from('3gAFp3ZlcnNpb24Eq2ZpbmdlcnByaW50kd4ABaRwYXRoqy9kYXRhL2EuY3N2pHNpemUKp210aW1lTXPLP/gA'
    + 'AAAAAACjaW5vB6Rub3Rl1AAAqHByb2dyZXNz3gACpGRvbmUBpHVuaXSlYnl0ZXOlc3RhdGXECv8PbyIBbkkCewGnc2F2ZWRBdAI=', 'base64');
  const old = decodeCheckpoint<CheckpointRecord<{ n: number }>>(bytes, CHECKPOINT_FORMAT);
  assert.deepStrictEqual(old, record([file]));
  assert.ok(sameFingerprint(old.fingerprint, [reordered]));
});

/** One call of a resumable command over a checkpoint folder, with a clock that stands still. */
function call(stateRoot: string) {
  const clock = { now: () => 1_000, monotonic: () => ({ ms: 1_000 }), sleep: async () => undefined };
  const host = { env: {}, cwd: stateRoot, stdinIsTTY: false, ...clock, writeStderr: () => undefined };
  const warnings: WarningDetail[] = [];
  const context = createCallContext({
    host: host as unknown as Host, invocationKey: 'k', argumentsDigest: 'k', stateRoot, warnings,
    stopRequested: () => false, stopCause: () => undefined, onProgress: () => undefined,
  });
  return { ...context, warnings };
}

test('restore continues from a checkpoint made from the same inputs built in another key order', async () => {
  const root = world.path('restore');
  const first = call(root);
  assert.equal(await first.ctx.restore([file]), undefined);
  await first.ctx.checkpoint({ n: 1 }, { done: 1, total: 2, unit: 'bytes' }, true);
  await first.finish(false);
  const again = call(root);
  const restored = await again.ctx.restore<{ n: number }>([reordered]);
  assert.deepEqual(restored?.state, { n: 1 });
  assert.deepEqual(again.warnings, []);
  await again.finish(false);
  const changed = call(root);
  assert.equal(await changed.ctx.restore([{ ...file, size: 11 }]), undefined);
  assert.deepEqual(changed.warnings.map((w) => w.code), [WarningCode.CheckpointDiscarded]);
  await changed.finish(true);
});
