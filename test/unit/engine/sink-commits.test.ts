import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sinkCommits } from '../../../src/engine/sink-run.js';
import type { Sink, SinkMark } from '../../../src/engine/sinks/sink.js';
import type { SafePointContext } from '../../../src/engine/engine-context.js';
import type { Progress } from '../../../src/contract/incomplete.js';
import { ProgressUnit } from '../../../src/contract/vocabulary/progress-unit.js';

/** A sink whose commits resolve only when the test lets them. */
function heldSink(): Sink<number> & { marks: SinkMark<number>[]; release(): void } {
  const waiting: (() => void)[] = [];
  return {
    marks: [],
    resume: () => Promise.resolve(undefined),
    commit(mark) {
      this.marks.push(mark);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release: () => waiting.shift()?.(),
  };
}

function context(stop: () => boolean): SafePointContext & { reports: Progress[] } {
  const reports: Progress[] = [];
  return {
    reports,
    progress: (done: number, total?: number, unit?: string) => void reports.push({ done, total, unit } as Progress),
    stopRequested: stop,
    // The call's clock: a sink's commits are timed on it for the budget's pace.
    now: () => Date.now(),
  };
}

const rows = (state: number): Progress => ({ done: state, unit: ProgressUnit.Rows });
const at = (offset: number) => ({ offset, line: offset + 1 });

test('ahead: a safe point returns with its commit in flight, and the next one waits for it', async () => {
  const sink = heldSink();
  const ctx = context(() => false);
  const commits = sinkCommits(ctx, sink, ['input'], { progressOf: rows, ahead: true });
  assert.equal(await commits.safePoint(10, at(100)), false, 'the first commit is still in flight');
  assert.equal(sink.marks.length, 1);
  assert.equal(ctx.reports.length, 0, 'progress is reported only once a commit is durable');
  const second = commits.safePoint(20, at(200));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(sink.marks.length, 1, 'the second commit waits for the first');
  sink.release();
  assert.equal(await second, false);
  assert.equal(sink.marks.length, 2);
  assert.deepEqual(ctx.reports.map((p) => [p.done, p.unit]), [[10, ProgressUnit.Rows]]);
  sink.release();
  await commits.settled();
  assert.deepEqual(ctx.reports.map((p) => p.done), [10, 20]);
  assert.equal(sink.marks[1]!.input, JSON.stringify(['input']));
});

test('ahead: a stop waits for the commit before the safe point answers', async () => {
  const sink = heldSink();
  const ctx = context(() => true);
  const commits = sinkCommits(ctx, sink, ['input'], { progressOf: rows, ahead: true });
  let answered = false;
  const stopping = commits.safePoint(5, at(50)).then((stop) => ((answered = true), stop));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(answered, false, 'no answer while the commit is in flight');
  sink.release();
  assert.equal(await stopping, true);
  assert.deepEqual(ctx.reports.map((p) => p.done), [5]);
});

test('not ahead: every safe point waits for its own commit', async () => {
  const sink = heldSink();
  const ctx = context(() => false);
  const commits = sinkCommits(ctx, sink, ['input'], { progressOf: rows, ahead: false });
  let answered = false;
  const point = commits.safePoint(1, at(10)).then(() => (answered = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(answered, false);
  sink.release();
  await point;
  assert.deepEqual(ctx.reports.map((p) => p.done), [1]);
});
