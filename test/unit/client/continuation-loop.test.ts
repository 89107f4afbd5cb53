import { test } from 'node:test';
import assert from 'node:assert/strict';
import { continueUntilDone } from '../../../src/client/continuation-loop.js';
import { buildEnvelope, type Envelope } from '../../../src/contract/envelope.js';

const incomplete = (done: number): Envelope =>
  buildEnvelope({
    exitCode: 14,
    durationMs: 1,
    data: { state: 'running', job_id: 'x-00000001', progress: { done }, continue_command: 'tool job wait x-00000001', cancel_command: 'tool job cancel x-00000001' },
    error: { code: 'INCOMPLETE', message: 'not yet', retryable: true },
  });
const finished = buildEnvelope({ exitCode: 0, durationMs: 9, data: { answer: 42 } });

test('runs continue_command until the exit is not 14', async () => {
  const answers = [incomplete(20), incomplete(30), finished];
  const ran: string[] = [];
  const result = await continueUntilDone(incomplete(10), { run: async (line) => (ran.push(line), answers.shift()!) });
  assert.equal(result.status, 'done');
  assert.equal(result.limit, undefined);
  assert.deepEqual(result.response.data, { answer: 42 });
  assert.deepEqual(ran, ['tool job wait x-00000001', 'tool job wait x-00000001', 'tool job wait x-00000001']);
});

test('three continuations without growth: cancel_command, then incomplete', async () => {
  const ran: string[] = [];
  const result = await continueUntilDone(incomplete(10), { run: async (line) => (ran.push(line), line.includes('cancel') ? finished : incomplete(10)) });
  assert.equal(result.status, 'incomplete');
  assert.equal(result.limit, 'completion');
  assert.equal(ran.at(-1), 'tool job cancel x-00000001');
  assert.equal(ran.filter((l) => l.includes('wait')).length, 3);
});

test('a call cap or a deadline stops waiting, not the work', async () => {
  const capped = await continueUntilDone(incomplete(1), { run: async () => incomplete(2), maxCalls: 0 });
  assert.deepEqual([capped.status, capped.limit], ['pending', 'maxTurns']);
  let clock = 0;
  const late = await continueUntilDone(incomplete(1), { run: async () => ((clock += 10), incomplete(clock)), deadline: 25, now: () => clock });
  assert.deepEqual([late.status, late.limit], ['pending', 'maxWallMs']);
});

test('onResponse hears each continuation; a stall hands back the cancel_command answer', async () => {
  const heard: number[] = [];
  const cancelled = buildEnvelope({ exitCode: 0, durationMs: 1, data: { cancelled: true } });
  const result = await continueUntilDone(incomplete(10), {
    run: async (line) => (line.includes('cancel') ? cancelled : incomplete(10)),
    onResponse: (response) => heard.push(response.meta.exit_code),
  });
  assert.deepEqual(heard, [14, 14, 14], 'the three stalled continuations, not the cancel');
  assert.equal(result.continuations, 3);
  assert.deepEqual(result.cancelResponse?.data, { cancelled: true });
  const done = await continueUntilDone(incomplete(1), { run: async () => finished });
  assert.equal(done.cancelResponse, undefined);
});

test('an aborted signal starts no further continuation: pending, no limit, the work left as it is', async () => {
  const controller = new AbortController();
  const ran: string[] = [];
  const result = await continueUntilDone(incomplete(1), {
    run: async (line) => (ran.push(line), controller.abort(), incomplete(2)),
    signal: controller.signal,
  });
  assert.deepEqual([result.status, result.limit, result.continuations], ['pending', undefined, 1]);
  assert.deepEqual(ran, ['tool job wait x-00000001'], 'no cancel_command either');
  assert.deepEqual((result.response.data as { progress: unknown }).progress, { done: 2 });
});

test('limits that would never stop the loop, or make no sense, are refused before any continuation runs', async () => {
  const bad = [
    [{ stallLimit: 0 }, 'stallLimit', 'a whole number of at least 1'],
    [{ stallLimit: 1.5 }, 'stallLimit', 'a whole number of at least 1'],
    [{ maxCalls: NaN }, 'maxCalls', 'a whole number of at least 0'],
    [{ maxCalls: -1 }, 'maxCalls', 'a whole number of at least 0'],
    [{ deadline: NaN }, 'deadline', 'a number'],
  ] as const;
  for (const [limits, option, rule] of bad) {
    const ran: string[] = [];
    await assert.rejects(
      continueUntilDone(incomplete(10), { run: async (line) => (ran.push(line), finished), ...limits }),
      (error: { code?: string; message?: string }) => error.code === 'ARG_ERROR'
        && error.message === `continueUntilDone: ${option} must be ${rule} (got ${Object.values(limits)[0]})`,
    );
    assert.deepEqual(ran, [], `${option}: nothing ran`);
  }
  const zero = await continueUntilDone(incomplete(10), { run: async () => finished, maxCalls: 0 });
  assert.equal(zero.status, 'pending', 'maxCalls 0 is a limit: no continuation');
});
