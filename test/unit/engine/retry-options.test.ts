import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryOptions } from '../../../src/engine/queue/retry-options.js';
import { StintError } from '../../../src/contract/stint-error.js';

test('a chunk job is tried 3 times with no backoff unless STINT_QUEUE_ATTEMPTS / STINT_QUEUE_BACKOFF_MS say', () => {
  assert.deepEqual(retryOptions({}), { attempts: 3 });
  assert.deepEqual(retryOptions({ STINT_QUEUE_ATTEMPTS: '5', STINT_QUEUE_BACKOFF_MS: '250' }),
    { attempts: 5, backoff: { type: 'exponential', delay: 250 } });
  assert.deepEqual(retryOptions({ STINT_QUEUE_ATTEMPTS: '1', STINT_QUEUE_BACKOFF_MS: '0' }), { attempts: 1 });
});

test('a retry setting out of range is an ARG_ERROR naming the variable', () => {
  for (const env of [{ STINT_QUEUE_ATTEMPTS: '0' }, { STINT_QUEUE_ATTEMPTS: '2.5' }, { STINT_QUEUE_BACKOFF_MS: '-1' },
    { STINT_QUEUE_BACKOFF_MS: 'soon' }]) {
    const name = Object.keys(env)[0]!;
    assert.throws(() => retryOptions(env), (error: unknown) =>
      error instanceof StintError && error.code === 'ARG_ERROR' && error.message.startsWith(name), name);
  }
});
