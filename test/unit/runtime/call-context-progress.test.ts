import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Progress } from '../../../src/contract/incomplete.js';
import type { Host } from '../../../src/runtime/authoring/host.js';
import { createCallContext } from '../../../src/runtime/call/call-context.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('call-context-progress');

/** A call whose clock stands still: after the first save, no safe point is due to save again. */
function call(home: string) {
  const clock = { now: () => 1_000, monotonic: () => ({ ms: 1_000 }) };
  const host = { env: {}, cwd: home, stdinIsTTY: false, ...clock, writeStderr: () => undefined };
  const published: number[] = [];
  const context = createCallContext({
    host: host as unknown as Host, invocationKey: 'k', argumentsDigest: 'k', stateRoot: home, warnings: [],
    stopRequested: () => false, stopCause: () => undefined,
    onProgress: (progress: Progress) => void published.push(progress.done),
  });
  return { ...context, published };
}

test('safe points publish only what they save; a completed work publishes its last offered figure', async () => {
  const run = call(world.path('completed'));
  await run.ctx.restore({ steps: 3 });
  for (const done of [1, 2, 3]) await run.ctx.checkpoint({ done }, { done, total: 3, unit: 'steps' });
  assert.deepEqual(run.published, [1], 'only the first safe point saved');
  run.completed();
  assert.deepEqual(run.published, [1, 3]);
  assert.equal(run.lastProgress()?.done, 3);
  run.completed();
  assert.deepEqual(run.published, [1, 3], 'published once');
  await run.finish(true);
});

test('a completed work whose last safe point saved publishes nothing more', async () => {
  const run = call(world.path('saved'));
  await run.ctx.restore({ steps: 1 });
  await run.ctx.checkpoint({ done: 1 }, { done: 1, total: 1, unit: 'steps' });
  run.completed();
  assert.deepEqual(run.published, [1]);
  await run.finish(true);
});
