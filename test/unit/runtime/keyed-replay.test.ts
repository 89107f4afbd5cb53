import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExitCode } from '../../../src/contract/exit-code.js';
import type { KeptClaim } from '../../../src/runtime/authoring/command-spec.js';
import { earlierAnswer, forgetAnswer, keepAnswer, markAnswerUnseen, NOOP_EFFECT } from '../../../src/runtime/call/keyed-replay.js';

const stateRoot = mkdtempSync(join(tmpdir(), 'stint-keyed-replay-'));
type Spec = { answerHolds?: (kept: KeptClaim) => boolean | Promise<boolean> };
/** A writer's call as keyed-replay.ts sees it. */
const call = (flags: Record<string, unknown>, argumentsDigest = 'args-1', given = true, spec: Spec = {}, key = 'k-1') => ({
  command: { id: 'write', spec },
  flags,
  options: { idempotencyKey: key, idempotencyKeyGiven: given },
  stateRoot,
  argumentsDigest,
}) as unknown as Parameters<typeof earlierAnswer>[0];
const success = { exitCode: ExitCode.SUCCESS, data: { written: 3 } };
const noop = { written: 3, effect: NOOP_EFFECT };

test('a --dry-run is neither kept nor answered from the key: the real call under the same key still runs', async () => {
  keepAnswer(call({ 'dry-run': true }, 'args-dry'), { exitCode: ExitCode.SUCCESS, data: { would_write: 3 } });
  assert.equal(await earlierAnswer(call({})), undefined, 'nothing kept by the preview');
  keepAnswer(call({}), success);
  assert.equal(await earlierAnswer(call({ 'dry-run': true }, 'args-dry')), undefined, 'a preview is never replayed');
  const replay = await earlierAnswer(call({}));
  assert.deepEqual(replay, { exitCode: ExitCode.SUCCESS, data: noop, meta: { idempotency_hit: true } });
  assert.equal((await earlierAnswer(call({}, 'args-2')))!.exitCode, ExitCode.CONFLICT, 'the key with other arguments');
  assert.equal(await earlierAnswer(call({}, 'args-1', false)), undefined, 'a derived key never replays');
});

test("a writer's answerHolds sees the kept data and claim; false makes the repeat a new run and forgets the answer", async () => {
  const seen: KeptClaim[] = [];
  let holds = true;
  const spec: Spec = { answerHolds: (kept) => (seen.push(kept), holds) };
  const writer = (given = true) => call({}, 'args-1', given, spec, 'k-holds');
  keepAnswer(writer(), { ...success, claim: { ino: 7, size: 12 } });
  assert.deepEqual(await earlierAnswer(writer()), { exitCode: ExitCode.SUCCESS, data: noop, meta: { idempotency_hit: true } });
  assert.deepEqual(seen, [{ data: { written: 3 }, claim: { ino: 7, size: 12 } }]);
  holds = false;
  assert.equal(await earlierAnswer(writer()), undefined, 'a claim that no longer holds is not given again');
  holds = true;
  assert.equal(await earlierAnswer(writer()), undefined, 'and it is forgotten: the new run answers the key next');
  assert.equal(seen.length, 2);
});

test('a run of the key forgets the answer kept before it: its continuation continues it, never the earlier one', async () => {
  const writer = (given: boolean) => call({}, 'args-1', given, {}, 'k-forget');
  keepAnswer(writer(false), success);
  assert.ok(await earlierAnswer(writer(true)), 'the finished run answers its key');
  forgetAnswer(writer(false));
  assert.equal(await earlierAnswer(writer(true)), undefined, 'a new run of the key (say, paused) holds it now');
  keepAnswer(writer(true), { exitCode: ExitCode.INCOMPLETE, data: { rows: 1 } });
  assert.equal(await earlierAnswer(writer(true)), undefined, 'only a success is kept');
});

// A call answered 14 at its budget and then ended the work on its way out: its answer is kept unseen. The next
// identical call begins a run (forgetting the key's answer) and attaches to that end; once it gives the answer,
// a repeat of the continue_command must still replay it.
test('an answer still to be given is not forgotten as a run of its key begins; once given, it replays', async () => {
  const writer = call({}, 'args-1', true, {}, 'k-unseen');
  keepAnswer(writer, success);
  markAnswerUnseen(writer, true);
  assert.equal(await earlierAnswer(writer), undefined, 'unseen: not a repeat\'s answer yet');
  forgetAnswer(writer);
  markAnswerUnseen(writer, false);
  assert.deepEqual(await earlierAnswer(writer), { exitCode: ExitCode.SUCCESS, data: noop, meta: { idempotency_hit: true } });
  forgetAnswer(writer);
  assert.equal(await earlierAnswer(writer), undefined, 'a seen answer is forgotten as a new run begins');
});
