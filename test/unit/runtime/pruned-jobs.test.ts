import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { JobStore, JOB_RETENTION_MS } from '../../../src/runtime/jobs/job-store.js';
import { PrunedJobs } from '../../../src/runtime/jobs/pruned-jobs.js';
import { jobRows } from '../../../src/program/builtins/job/job-walk.js';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import type { JobRecord } from '../../../src/runtime/jobs/job-record.js';
import { tempWorld } from '../../helpers/temp-world.js';
import { systemMonotonic } from '../../../src/runtime/authoring/monotonic-clock.js';

/** A listing's look at `now` on the wall clock (the machine's monotonic clock beside it). */
const at = (now: number) => ({ now, reading: systemMonotonic() });

/** These stores hold no record a listing refuses. */
const none = () => undefined;

const world = tempWorld('pruned-jobs');

function record(id: string, createdAt: number): JobRecord {
  return { id, key: id, program: 'stint', command: ['analyze'], argv: ['analyze', 'x.csv'], cwd: '/', programWords: ['stint'], detach: true, resume: true, writes: false, idleTimeoutMs: 300000, timeoutMs: 0, createdAt };
}

function storeOfDone(name: string, count: number, t0: number): JobStore {
  const store = new JobStore(world.path(name));
  for (let k = 0; k < count; k++) {
    const id = `analyze-${String(k).padStart(8, '0')}`;
    store.create(record(id, t0 + k), { state: JobState.Done, startedAt: t0, updatedAt: t0 + k, progressAt: t0, endedAt: t0 + k });
  }
  return store;
}

test('a taken job leaves every listing at once; a second take of it says it was not there', () => {
  const store = storeOfDone('take', 3, 1_000);
  const pruned = new PrunedJobs(store.root);
  assert.equal(pruned.take(store.dir('analyze-00000001'), 'analyze-00000001'), true);
  assert.equal(pruned.take(store.dir('analyze-00000001'), 'analyze-00000001'), false);
  assert.deepEqual(store.list().sort(), ['analyze-00000000', 'analyze-00000002']);
  assert.deepEqual(jobRows(store, at(2_000), none).map((row) => row.id), ['analyze-00000000', 'analyze-00000002']);
});

test('deleting runs for its time slice on the given clock, at least one folder a call, until none is left', () => {
  const store = storeOfDone('slice', 7, 1_000);
  const pruned = new PrunedJobs(store.root);
  for (const id of store.list()) assert.ok(pruned.take(store.dir(id), id));
  let tick = 0;
  const clock = () => tick++;
  // The clock moves one a reading: the slice starts at 0 and ends at 3; folders go while it reads 1 and 2.
  assert.equal(pruned.deleteFor(3, clock), 4);
  tick = 0;
  assert.equal(pruned.deleteFor(0, clock), 3, 'a spent slice still deletes one');
  assert.equal(pruned.deleteFor(1_000, () => 0), 0);
  assert.deepEqual(readdirSync(join(store.root, 'pruned')), []);
});

test('the listing leaves out jobs past their retention without waiting for a sweep, oldest first', () => {
  const t0 = 10_000_000;
  const store = storeOfDone('retention', 4, t0);
  const now = t0 + 2 + JOB_RETENTION_MS;
  // Ended at t0, t0+1 (more than the retention ago), t0+2 (exactly), t0+3.
  assert.deepEqual(jobRows(store, at(now), none).map((row) => row.id), ['analyze-00000002', 'analyze-00000003']);
  assert.ok(existsSync(store.dir('analyze-00000000')), 'left for the sweep to remove');
  store.sweep(() => now);
  assert.deepEqual(store.list().sort(), ['analyze-00000002', 'analyze-00000003']);
});
