import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import type { JobRecord } from '../../../src/runtime/jobs/job-record.js';
import { JobStore } from '../../../src/runtime/jobs/job-store.js';
import { RunningStatus } from '../../../src/runtime/jobs/running-status.js';
import { FakeClock, fakeHost } from '../../helpers/fake-host.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('running-status');

function record(id: string): JobRecord {
  return {
    id, key: `key-${id}`, program: 'stint', command: ['import'], argv: ['import', 'x.csv'], cwd: '/',
    programWords: ['stint'], detach: false, resume: true, writes: true, idleTimeoutMs: 300_000, timeoutMs: 0,
    createdAt: 0,
  };
}

function started(id: string): { store: JobStore; status: RunningStatus; clock: FakeClock } {
  const clock = new FakeClock();
  const host = fakeHost(['import', 'x.csv'], {}, world.dir, clock);
  const store = new JobStore(world.path(id));
  const job = record(id);
  store.create(job, { state: JobState.Running, pid: process.pid, startedAt: 0, updatedAt: 0, progressAt: 0 });
  const status = new RunningStatus(host, store, job);
  status.report({ done: 10, total: 100 });
  status.close();
  return { store, status, clock };
}

// A call answered at its budget, then committed its first piece: killed before it writes its pause, the job
// that continues it must start from that commit, which its heartbeat already showed.
test('a report after the run was decided is written while the status is still this process\'s running one', () => {
  const { store, status } = started('import-0000000a');
  status.report({ done: 20, total: 100 });
  const now = store.readStatus('import-0000000a')!;
  assert.equal(now.state, JobState.Running);
  assert.equal(now.progress?.done, 20);
});

test('a late report never writes over a pause, a handoff or an end', () => {
  const { store, status } = started('import-0000000b');
  const id = 'import-0000000b';
  const paused = { ...store.readStatus(id)!, state: JobState.Paused };
  store.writeStatus(id, paused);
  status.report({ done: 30, total: 100 });
  assert.deepEqual(store.readStatus(id), paused, 'paused stays paused');
  const supervisor = { ...paused, state: JobState.Running, pid: process.pid + 1 };
  store.writeStatus(id, supervisor);
  status.report({ done: 40, total: 100 });
  assert.deepEqual(store.readStatus(id), supervisor, 'the supervisor\'s status is its own');
});
