// When a call with a budget stops, on the injected clock: the stop is planned from the measured pace of the
// work (its pieces between safe points, its commits, a synchronous one included), hurried when only its commit
// and the answer still fit (the work then stops at its last safe point rather than wait on a chunk in flight)
// and forced before the budget. Signals hurry their stop at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, fakeHost } from '../../helpers/fake-host.js';
import { wireStopSources, type StopSources } from '../../../src/runtime/jobs/stop-sources.js';
import { RunMode } from '../../../src/runtime/jobs/run-mode.js';
import { waitDeadline } from '../../../src/runtime/jobs/budget-plan.js';
import { StopReason } from '../../../src/contract/vocabulary/stop-reason.js';
import type { JobStore } from '../../../src/runtime/jobs/job-store.js';
import type { JobRecord } from '../../../src/runtime/jobs/job-record.js';

const store = { cancelRequested: () => false } as unknown as JobStore;

/** One call's stop sources with a budget of `budgetMs` from now, and what became of them. */
function call(budgetMs: number) {
  const clock = new FakeClock();
  const host = fakeHost([], {}, '/', clock);
  const started = clock.now;
  const job = { id: 'j', timeoutMs: 0, idleTimeoutMs: 1e9, createdAt: started } as unknown as JobRecord;
  const sources: StopSources = wireStopSources({
    host, store, job, mode: RunMode.Front, deadline: started + budgetMs, started,
    progressAt: () => clock.now, onWatch: () => {},
  });
  const seen: { requestedAt?: number; hurriedAt?: number; forcedAt?: number } = {};
  sources.stop.onRequest(() => (seen.requestedAt = clock.now - started));
  void sources.stop.urgent.then(() => (seen.hurriedAt ??= clock.now - started));
  void sources.forced.then(() => (seen.forcedAt ??= clock.now - started));
  /** Moves the clock by `ms`, firing every timer due on the way (a synchronous commit fires none). */
  const advance = async (ms: number, blocking = false) => {
    const target = clock.now + ms;
    if (!blocking) while (nextDue(clock) <= target && clock.fireNext()) await Promise.resolve();
    clock.now = target;
    await Promise.resolve();
  };
  return { clock, host, sources, seen, advance, elapsed: () => clock.now - started };
}

function nextDue(clock: FakeClock): number {
  const timers = (clock as unknown as { timers: Map<number, { due: number }> }).timers;
  return Math.min(...[...timers.values()].map((timer) => timer.due));
}

/** A handler whose every piece takes `pieceMs` and every commit `commitMs` (blocking the thread when `sync`). */
async function work(run: ReturnType<typeof call>, pieceMs: number, commitMs: number, sync: boolean, startUpMs = 0) {
  await run.advance(startUpMs);
  for (let pieces = 0; pieces < 1000; pieces++) {
    await run.advance(pieceMs);
    run.sources.pace!.safePoint();
    await run.advance(commitMs, sync);
    run.sources.pace!.committed(commitMs);
    if (run.sources.stop.requested) return run.elapsed();
  }
  throw new Error('the work was never asked to stop');
}

test('before any safe point: the stop is asked for a fifth of the budget early and forced just before it', async () => {
  const run = call(1_000);
  await run.advance(2_000);
  assert.deepEqual(run.seen, { requestedAt: 700, forcedAt: 900 });
  run.sources.close();
});

test('a handler stuck before its first safe point is forced before the budget, not after it', async () => {
  for (const budget of [100, 500, 1_000, 5_000]) {
    const run = call(budget);
    await run.advance(budget * 3);
    assert.equal(run.sources.stop.reason, StopReason.Budget);
    assert.ok(run.seen.forcedAt! < budget, `forced at ${run.seen.forcedAt} under ${budget}`);
    run.sources.close();
  }
});

test('measured pieces and commits: the last safe point is the last one whose commit and answer still fit', async () => {
  const run = call(1_000);
  const answeredAt = await work(run, 100, 30, false, 50);
  // Safe points at 150, 280, 410, 540, 670, 800: going on from 800 would commit at 930, answer too late.
  assert.equal(answeredAt, 830);
  assert.ok(answeredAt + 100 <= 1_000);
  assert.equal(run.seen.forcedAt, answeredAt, "answered on the stop's own commit, not after the handler winds down");
  run.sources.close();
});

test('a synchronous commit (no timer runs during it) is planned for at the safe point before it', async () => {
  const run = call(1_000);
  // Each commit blocks the thread for 300 ms: a timer could not stop the work in time, the safe point does.
  const answeredAt = await work(run, 50, 300, true);
  assert.ok(answeredAt + 100 <= 1_000, `answered at ${answeredAt}`);
  assert.equal(run.seen.forcedAt, answeredAt);
  run.sources.close();
});

test('whatever the pace, a steady handler stops where its answer fits the budget', async () => {
  for (const budget of [500, 1_000, 5_000]) {
    for (const [piece, commit, sync] of [[10, 1, false], [40, 20, true], [90, 5, false], [120, 60, true]] as const) {
      const run = call(budget);
      const answeredAt = await work(run, piece, commit, sync, 60);
      const label = `budget ${budget}, pieces ${piece} ms, commits ${commit} ms`;
      assert.ok(answeredAt + run.sources.pace!.answerMs <= budget, `${label}: answered at ${answeredAt}`);
      assert.equal(run.seen.forcedAt, answeredAt, label);
      run.sources.close();
    }
  }
});

test('a handler whose next safe point does not come (its chunk held): hurried once only the commit and the'
  + ' answer fit, then forced', async () => {
  const run = call(1_000);
  await run.advance(100);
  run.sources.pace!.safePoint();
  await run.advance(10);
  run.sources.pace!.committed(10);
  await run.advance(2_000);
  // Answer reserve 100, commit 10, piece 100: asked at 790, hurried at 840 (the commit and half the reserve
  // before the hard stop), forced at 900.
  assert.deepEqual(run.seen, { requestedAt: 790, hurriedAt: 840, forcedAt: 900 });
  run.sources.close();
});

test('before the first safe point the budget is not hurried: the hard stop answers, the work goes on to it',
  async () => {
    const run = call(1_000);
    await run.advance(2_000);
    assert.equal(run.seen.hurriedAt, undefined);
    assert.equal(run.seen.forcedAt, 900);
    run.sources.close();
  });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal}: the stop is requested and hurried at once, before any safe point`, async () => {
    const run = call(10_000);
    await run.advance(50);
    run.host.signal(signal);
    await run.advance(0);
    assert.equal(run.seen.requestedAt, 50);
    assert.equal(run.seen.hurriedAt, 50);
    run.sources.close();
  });
}

test('a call that waits on a job (attached, job wait, job cancel) stops waiting while its answer still fits', () => {
  assert.equal(waitDeadline(10_000, 1_000), 10_900, 'a tenth of the budget kept for the answer');
  assert.equal(waitDeadline(10_000, 100), 10_080, 'never less than 20 ms');
  assert.equal(waitDeadline(10_000, 60_000), 69_900, 'never more than 100 ms');
  assert.equal(waitDeadline(10_000, 0), undefined, 'no budget: until the job ends');
  assert.equal(waitDeadline(10_000, undefined), undefined);
});
