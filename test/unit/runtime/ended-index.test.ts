import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobStore } from '../../../src/runtime/jobs/job-store.js';
import { EndedIndex } from '../../../src/runtime/jobs/ended-index.js';
import { jobRows, SETTLED_MS } from '../../../src/program/builtins/job/job-walk.js';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import type { JobRecord } from '../../../src/runtime/jobs/job-record.js';
import { tempWorld } from '../../helpers/temp-world.js';
import { systemMonotonic } from '../../../src/runtime/authoring/monotonic-clock.js';

/** A listing's look at `now` on the wall clock (the machine's monotonic clock beside it). */
const at = (now: number) => ({ now, reading: systemMonotonic() });

/** These stores hold no record a listing refuses. */
const none = () => undefined;

const world = tempWorld('ended-index');

function record(id: string, createdAt: number): JobRecord {
  return { id, key: id, program: 'stint', command: ['analyze'], argv: ['analyze', 'x.csv'], cwd: '/', programWords: ['stint'], detach: true, resume: true, writes: false, idleTimeoutMs: 300000, timeoutMs: 0, createdAt };
}

const ids = (root: string) => [...new EndedIndex(root).read().keys()].sort();

test('an end is kept in the index once it has stood SETTLED_MS; a paused or lost job never; a torn line is skipped', () => {
  const store = new JobStore(world.path('settle'));
  const t0 = 1_000_000;
  store.create(record('analyze-00000001', t0), { state: JobState.Done, startedAt: t0, updatedAt: t0, progressAt: t0, endedAt: t0 });
  // A cancel may still replace an observer's verdict: never kept.
  store.create(record('analyze-00000003', t0 + 2), { state: JobState.Lost, startedAt: t0, updatedAt: t0, progressAt: t0, endedAt: t0 });
  store.create(record('analyze-00000002', t0 + 1), { state: JobState.Paused, startedAt: t0, updatedAt: t0, progressAt: t0 });
  appendFileSync(join(store.root, 'ended-jobs'), '{"id":"analyze-0000');
  const states = [JobState.Done, JobState.Paused, JobState.Lost];
  assert.deepEqual(jobRows(store, at(t0 + SETTLED_MS), none).map((row) => row.state), states);
  assert.deepEqual(ids(store.root), [], 'not yet: an observer\'s verdict could still give way to the job\'s own end');
  jobRows(store, at(t0 + SETTLED_MS + 1), none);
  assert.deepEqual(ids(store.root), ['analyze-00000001']);
  jobRows(store, at(t0 + SETTLED_MS + 2), none);
  const lines = readFileSync(join(store.root, 'ended-jobs'), 'utf8').split('\n').filter((line) => line.startsWith('{"id":"analyze-00000001"'));
  assert.equal(lines.length, 1, 'learned once');
});

test('the index answers for a job it knows, and is rewritten once most of its lines name jobs that are gone', () => {
  const store = new JobStore(world.path('rewrite'));
  const t0 = 1_000_000;
  store.create(record('analyze-00000001', t0), { state: JobState.Done, startedAt: t0, updatedAt: t0, progressAt: t0, endedAt: t0 });
  const index = new EndedIndex(store.root);
  const gone = Array.from({ length: 150 }, (_, k) => ({ id: `analyze-1${String(k).padStart(7, '0')}`, createdAt: t0, state: JobState.Done, updatedAt: t0 }));
  index.add([{ id: 'analyze-00000001', createdAt: t0, state: JobState.Failed, updatedAt: t0 }, ...gone]);
  // What the index says stands for a job it knows (its files are not read again).
  assert.deepEqual(jobRows(store, at(t0 + 1), none).map((row) => [row.id, row.state]),
    [['analyze-00000001', JobState.Failed]]);
  assert.deepEqual(ids(store.root), ['analyze-00000001'], 'the 150 lines of jobs that are gone were dropped');
});
