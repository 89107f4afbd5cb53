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
