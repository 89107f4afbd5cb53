import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noWorkerLimitMs } from '../../../src/engine/queue/worker-presence.js';
import { StintError } from '../../../src/contract/stint-error.js';

test('a queued call waits 120 s for a live worker of its build unless STINT_QUEUE_NO_WORKER_MS says', () => {
  assert.equal(noWorkerLimitMs({}), 120_000);
  assert.equal(noWorkerLimitMs({ STINT_QUEUE_NO_WORKER_MS: '' }), 120_000);
  assert.equal(noWorkerLimitMs({ STINT_QUEUE_NO_WORKER_MS: '4000' }), 4_000);
  assert.equal(noWorkerLimitMs({ STINT_QUEUE_NO_WORKER_MS: '86400000' }), 86_400_000);
});

test('a limit out of range is an ARG_ERROR naming the variable', () => {
  for (const value of ['0', '-5', '1.5', 'soon', '86400001']) {
    assert.throws(() => noWorkerLimitMs({ STINT_QUEUE_NO_WORKER_MS: value }), (error: unknown) =>
      error instanceof StintError && error.code === 'ARG_ERROR'
        && error.message.startsWith('STINT_QUEUE_NO_WORKER_MS'), value);
  }
});
