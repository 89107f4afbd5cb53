import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Progress } from '../../../src/contract/incomplete.js';
import type { Host } from '../../../src/runtime/authoring/host.js';
import { createCallContext } from '../../../src/runtime/call/call-context.js';
import { tempWorld } from '../../helpers/temp-world.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

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

/** A call on a clock the test moves, whose every save takes `saveMs` (test mode's slow save sleeps on that clock). */
function timedCall(home: string, saveMs: number, env: Record<string, string> = {}) {
  let ms = 0;
  const clock = {
    now: () => 1_000 + ms, monotonic: () => ({ ms }), sleep: async (t: number) => void (ms += t),
  };
  const slow = { STINT_TEST_MODE: '1', STINT_TEST_SLOW_SAVE: `1:${saveMs}` };
  const host = { env: { ...slow, ...env }, cwd: home, stdinIsTTY: false, ...clock, writeStderr: () => undefined };
  const published: number[] = [];
  const context = createCallContext({
    host: host as unknown as Host, invocationKey: 'k', argumentsDigest: 'k', stateRoot: home, warnings: [],
    stopRequested: () => false, stopCause: () => undefined,
    onProgress: (progress: Progress) => void published.push(progress.done),
  });
  /** A safe point every 100 ms for `seconds`, its `done` the time. */
  const runFor = async (seconds: number) => {
    await context.ctx.restore({ steps: 1 });
    for (let step = 0; step < seconds * 10; step++) {
      ms = Math.max(ms, step * 100);
      await context.ctx.checkpoint({ done: ms }, { done: ms, total: seconds * 1000, unit: 'ms' });
    }
    await context.finish(true);
  };
  return { published, runFor };
}

test('a save that takes more than 5 % of the interval puts the next one off by as much; one set in the environment'
  + ' is kept exactly', async () => {
    const quick = timedCall(world.path('quick'), 1);
    await quick.runFor(10);
    assert.deepEqual(quick.published, [0, 1100, 2200, 3300, 4400, 5500, 6600, 7700, 8800, 9900], 'every second');
    const costly = timedCall(world.path('costly'), 200);
    await costly.runFor(10);
    assert.deepEqual(costly.published, [0, 4200, 8400], 'a 200 ms save every 4 s (at 5 % of the time)');
    const set = timedCall(world.path('set'), 200, { STINT_CHECKPOINT_INTERVAL_MS: '1000' });
    await set.runFor(10);
    assert.deepEqual(set.published, [0, 1200, 2400, 3600, 4800, 6000, 7200, 8400, 9600], 'as the environment says');
  });

test('a work that ends at its first safe point saves nothing: it opens no checkpoint database', async () => {
  const home = world.path('short');
  const run = call(home);
  await run.ctx.restore({ steps: 2 });
  await run.ctx.checkpoint({ done: 2 }, { done: 2, total: 2, unit: 'steps' });
  run.completed();
  assert.deepEqual(run.published, [2], 'published at the end, never saved');
  assert.deepEqual(readdirSync(join(home, 'checkpoints')), [], 'no database was created');
  await run.finish(true);
  assert.deepEqual(readdirSync(join(home, 'checkpoints')), []);
});

test('the first safe point with work left saves, and a later call restores it', async () => {
  const home = world.path('long');
  const run = call(home);
  assert.equal(await run.ctx.restore({ steps: 2 }), undefined);
  await run.ctx.checkpoint({ done: 1 }, { done: 1, total: 2, unit: 'steps' });
  assert.deepEqual(run.published, [1]);
  await run.finish(false);
  const again = call(home);
  assert.equal((await again.ctx.restore<{ done: number }>({ steps: 2 }))?.state.done, 1, 'the save is restored');
  await again.ctx.checkpoint({ done: 2 }, { done: 2, total: 2, unit: 'steps' }, true);
  await again.finish(true);
  assert.deepEqual(readdirSync(join(home, 'checkpoints')), [], 'an ended work keeps no checkpoint');
});
