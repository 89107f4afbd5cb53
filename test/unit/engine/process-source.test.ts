import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WarningDetail } from '../../../src/contract/envelope.js';
import type { Host } from '../../../src/runtime/authoring/host.js';
import { createCallContext } from '../../../src/runtime/call/call-context.js';
import type { FoldOver } from '../../../src/engine/fold-loop.js';
import { processSource, type Source } from '../../../src/engine/process-source.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('process-source');

/** Ten pages of ten numbers; `asked` records the cursor of every read. */
function pages(version = 'v1'): Source<number[], number> & { asked: (number | undefined)[] } {
  const asked: (number | undefined)[] = [];
  return {
    asked,
    fingerprint: () => version,
    async *read(cursor) {
      asked.push(cursor);
      for (let page = cursor ?? 0; page < 10; page++) {
        yield { chunk: Array.from({ length: 10 }, (_, k) => page * 10 + k), cursor: page + 1 };
      }
    },
  };
}

const sum: FoldOver<number[], { pages: number; sum: number }> = async function* (chunks, state) {
  for await (const numbers of chunks) {
    state = { pages: state.pages + 1, sum: state.sum + numbers.reduce((a, b) => a + b, 0) };
    yield state;
  }
  return state;
};

/**
 * One call's context on a real checkpoint store; the stop comes once `stopAfter` safe points have passed (counted
 * by the call's pace, which hears each one once, however often the call asks whether to stop).
 */
function call(home: string, stopAfter = Infinity) {
  const clock = { now: () => Date.now(), monotonic: () => ({ ms: performance.now() }) };
  const host = { env: {}, cwd: home, stdinIsTTY: false, ...clock, writeStderr: () => undefined };
  const warnings: WarningDetail[] = [];
  let safePoints = 0;
  const pace = { budgetMs: 0, safePoint: () => void safePoints++, committed: () => undefined };
  const context = createCallContext({
    host: host as unknown as Host, invocationKey: 'k', argumentsDigest: 'k', stateRoot: home, warnings,
    stopRequested: () => safePoints >= stopAfter, stopCause: () => undefined, pace,
  });
  return { ...context, warnings };
}

const initial = () => ({ pages: 0, sum: 0 });
const work = (source: Source<number[], number>) => ({ source, initial, fold: sum });

test('a stopped source continues from the cursor after the last chunk folded, to the whole answer', async () => {
  const home = world.path('resume');
  const first = call(home, 3);
  const stopped = await processSource(first.ctx, work(pages()));
  await first.finish(false);
  assert.deepEqual(stopped, { kind: 'stopped', state: { pages: 3, sum: 435 } });

  const second = call(home);
  const source = pages();
  const done = await processSource(second.ctx, work(source));
  await second.finish(true);
  assert.deepEqual(source.asked, [3], 'read again from the cursor after page 3, not from the start');
  assert.deepEqual(done, { kind: 'done', state: { pages: 10, sum: 4950 } });
  assert.deepEqual(second.warnings, []);
});

test('a source whose fingerprint changed starts over, with CHECKPOINT_DISCARDED', async () => {
  const home = world.path('changed');
  const first = call(home, 2);
  await processSource(first.ctx, work(pages('v1')));
  await first.finish(false);

  const second = call(home);
  const source = pages('v2');
  const done = await processSource(second.ctx, work(source));
  await second.finish(true);
  assert.deepEqual(source.asked, [undefined]);
  assert.deepEqual(done, { kind: 'done', state: { pages: 10, sum: 4950 } });
  assert.deepEqual(second.warnings.map((w) => w.code), ['CHECKPOINT_DISCARDED']);
});

test('a chunk without a cursor is refused: saved, it would mean "from the start"', async () => {
  const context = call(world.path('no-cursor'));
  const source: Source<number[], number> = {
    async *read() {
      yield { chunk: [1], cursor: undefined as unknown as number };
    },
  };
  await assert.rejects(processSource(context.ctx, work(source)), { code: 'INTERNAL_ERROR' });
  await context.finish(true);
});
