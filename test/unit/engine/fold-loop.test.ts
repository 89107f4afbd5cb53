// driveFold and an urgent stop: a fold waiting for a chunk that does not come (a queue worker holds it) stops
// at its last safe point once the stop is urgent; a fold that pulled a chunk since its last safe point is waited
// for, since its state may hold part of that chunk; without urgency nothing changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { driveFold, type FoldOver } from '../../../src/engine/fold-loop.js';

/** Chunks handed over by the test: `give(n)` lets the next pull have n; pulls past what was given wait. */
function heldChunks() {
  const waiting: ((value: number) => void)[] = [];
  const given: number[] = [];
  let pulls = 0;
  async function* chunks(): AsyncGenerator<number> {
    for (;;) {
      pulls++;
      yield given.length > 0 ? given.shift()! : await new Promise<number>((resolve) => waiting.push(resolve));
    }
  }
  const give = (value: number) => {
    const next = waiting.shift();
    if (next) next(value);
    else given.push(value);
  };
  return { chunks: chunks(), give, pulls: () => pulls };
}

/** Sums its chunks in place (one state object, as a fold that keeps its accumulators does), a yield after each. */
const summing: FoldOver<number, { sum: number; chunks: number }> = async function* (chunks, state) {
  for await (const chunk of chunks) {
    state.sum += chunk;
    state.chunks++;
    yield state;
  }
  return state;
};

/** Two chunks of a fold, each yielded only after both were pulled (a fold that pulls ahead of its yield). */
const pairing: FoldOver<number, { sum: number }> = async function* (chunks, state) {
  let first: number | undefined;
  for await (const chunk of chunks) {
    if (first === undefined) {
      first = chunk;
      continue;
    }
    state.sum += first + chunk;
    first = undefined;
    yield state;
  }
  return state;
};

function urgency() {
  let urge!: () => void;
  const urgent = new Promise<void>((resolve) => (urge = resolve));
  return { urgent, urge };
}

test('urgent while the fold waits for a chunk: stopped at the last safe point, its state as it was there', async () => {
  const source = heldChunks();
  const { urgent, urge } = urgency();
  const safePoints: number[] = [];
  const driven = driveFold(summing, source.chunks, { sum: 0, chunks: 0 }, async (state) => {
    safePoints.push(state.sum);
    return false;
  }, urgent);
  source.give(1);
  source.give(2);
  // The third chunk is held: the fold waits on it.
  while (source.pulls() < 3) await nextTurn();
  urge();
  const ended = await driven;
  assert.deepEqual(ended, { stopped: true, state: { sum: 3, chunks: 2 }, urgent: true });
  assert.deepEqual(safePoints, [1, 3]);
  // The held chunk comes late: the stopped fold is not moved by it.
  source.give(100);
  await nextTurn();
  assert.deepEqual(ended.state, { sum: 3, chunks: 2 });
});

test('urgent before any chunk came: stopped with the state it began with', async () => {
  const source = heldChunks();
  const { urgent, urge } = urgency();
  const driven = driveFold(summing, source.chunks, { sum: 0, chunks: 0 }, async () => false, urgent);
  while (source.pulls() < 1) await nextTurn();
  urge();
  assert.deepEqual(await driven, { stopped: true, state: { sum: 0, chunks: 0 }, urgent: true });
});

test('urgent while the fold pulled a chunk since its last safe point: it is waited for, to the next one',
  async () => {
    const source = heldChunks();
    const { urgent, urge } = urgency();
    let stop = false;
    const driven = driveFold(pairing, source.chunks, { sum: 0 }, async () => stop, urgent);
    source.give(1);
    while (source.pulls() < 2) await nextTurn();
    // The fold holds chunk 1 (not yet in a yielded state) and waits for chunk 2.
    stop = true;
    urge();
    let settled = false;
    void driven.then(() => (settled = true));
    for (let turn = 0; turn < 10; turn++) await nextTurn();
    assert.equal(settled, false, 'a stop at the last safe point would lose chunk 1 or count it twice');
    source.give(2);
    assert.deepEqual(await driven, { stopped: true, state: { sum: 3 } });
  });

test('never urgent: the fold runs to its end, and a safe point that asks to stop stops it there', async () => {
  const source = heldChunks();
  let points = 0;
  const driven = driveFold(summing, source.chunks, { sum: 0, chunks: 0 }, async () => ++points === 3);
  for (const chunk of [1, 2, 3, 4]) source.give(chunk);
  assert.deepEqual(await driven, { stopped: true, state: { sum: 6, chunks: 3 } });
});

test('a fold that ends on its own is done, with or without urgency pending', async () => {
  async function* three(): AsyncGenerator<number> {
    yield* [1, 2, 3];
  }
  const { urgent } = urgency();
  for (const given of [undefined, urgent]) {
    const ended = await driveFold(summing, three(), { sum: 0, chunks: 0 }, async () => false, given);
    assert.deepEqual(ended, { stopped: false, state: { sum: 6, chunks: 3 } });
  }
});
