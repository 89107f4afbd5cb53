import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobStore, JOB_RETENTION_MS, SWEEP_EVERY_MS } from '../../../src/runtime/jobs/job-store.js';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import type { JobRecord } from '../../../src/runtime/jobs/job-record.js';
import { breakStaleLease } from '../../../src/runtime/jobs/stale-lease.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('job-store');

function record(id: string, key: string): JobRecord {
  return { id, key, program: 'stint', command: ['analyze'], argv: ['analyze', 'x.csv'], cwd: '/', programWords: ['stint'], detach: true, resume: true, writes: false, idleTimeoutMs: 300000, timeoutMs: 0, createdAt: 0 };
}

test('ended jobs are cleaned after 24 hours, running ones never (the clock is the test\'s)', () => {
  const store = new JobStore(world.path('sweep'));
  const t0 = 1_000_000;
  store.create(record('analyze-00000001', 'k1'), { state: JobState.Done, startedAt: t0, updatedAt: t0, progressAt: t0, endedAt: t0 });
  store.create(record('analyze-00000002', 'k2'), { state: JobState.Running, pid: process.pid, startedAt: t0, updatedAt: t0, progressAt: t0 });
  store.sweep(() => t0 + JOB_RETENTION_MS - 1);
  assert.ok(store.exists('analyze-00000001'), 'kept for 24 hours');
  store.sweep(() => t0 + JOB_RETENTION_MS + 1);
  assert.ok(!existsSync(store.dir('analyze-00000001')), 'cleaned after');
  assert.ok(store.exists('analyze-00000002'), 'a running job is never cleaned');
});

test('a call sweeps at most once per SWEEP_EVERY_MS', () => {
  const store = new JobStore(world.path('sweep-due'));
  const t0 = 5_000_000;
  store.create(record('analyze-00000003', 'k3'), { state: JobState.Done, startedAt: t0, updatedAt: t0, progressAt: t0, endedAt: t0 });
  const expired = t0 + JOB_RETENTION_MS + 1;
  store.sweepWhenDue(() => expired - SWEEP_EVERY_MS + 1); // a sweep, too early for this job
  store.sweepWhenDue(() => expired);
  assert.ok(store.exists('analyze-00000003'), 'not due: the last sweep was under SWEEP_EVERY_MS ago');
  store.sweepWhenDue(() => expired + 1);
  assert.ok(!store.exists('analyze-00000003'), 'due again: swept');
});

test('of two claims on one key exactly one wins; a lease is one process at a time', () => {
  const store = new JobStore(world.path('claims'));
  assert.deepEqual(store.claimKey('key-a', 'analyze-0000000a'), { kind: 'claimed' });
  assert.deepEqual(store.claimKey('key-a', 'analyze-0000000b'), { kind: 'held', id: 'analyze-0000000a' });
  store.releaseKey('key-a', 'analyze-0000000b');
  assert.deepEqual(store.claimKey('key-a', 'analyze-0000000c'), { kind: 'held', id: 'analyze-0000000a' }, 'only the holder releases');
  store.create(record('analyze-0000000a', 'key-a'), { state: JobState.Running, startedAt: 0, updatedAt: 0, progressAt: 0 });
  assert.equal(store.takeLease('analyze-0000000a', process.pid), true);
  assert.equal(store.takeLease('analyze-0000000a', process.pid + 1), false, 'held by a live process');
  store.releaseLease('analyze-0000000a', process.pid);
  assert.equal(store.takeLease('analyze-0000000a', 999_999_999), true, 'free again');
  assert.equal(store.takeLease('analyze-0000000a', process.pid), true, 'a dead holder lease is stale');
});

test('a lease appears whole, and an empty one (its writer killed mid-write) is dropped once past its grace', () => {
  const store = new JobStore(world.path('leases'));
  const id = 'analyze-0000000e';
  store.create(record(id, 'k-lease'), { state: JobState.Lost, startedAt: 0, updatedAt: 0, progressAt: 0, endedAt: 0 });
  assert.equal(store.takeLease(id, process.pid), true);
  assert.deepEqual(readdirSync(store.dir(id)).filter((name) => name.includes('lease')), ['lease'], 'no draft left');
  assert.notEqual(readFileSync(join(store.dir(id), 'lease'), 'utf8'), '', 'written whole');
  store.releaseLease(id, process.pid);
  // What an older version's writer left when killed between its create and its write.
  const lease = join(store.dir(id), 'lease');
  writeFileSync(lease, '');
  store.dropStaleLease(id);
  assert.ok(existsSync(lease), 'a fresh empty lease may still be being written: kept');
  const old = new Date(Date.now() - 60_000);
  utimesSync(lease, old, old);
  store.dropStaleLease(id);
  assert.ok(!existsSync(lease), 'past its grace it is stale: dropped');
});

test('a stale lease is broken by one process at a time, and never the lease taken after it', () => {
  const store = new JobStore(world.path('breaks'));
  const id = 'analyze-0000000f';
  store.create(record(id, 'k-break'), { state: JobState.Lost, startedAt: 0, updatedAt: 0, progressAt: 0, endedAt: 0 });
  const lease = join(store.dir(id), 'lease');
  const dead = JSON.stringify({ pid: 999_999_999, start: 1 });
  writeFileSync(lease, dead);
  // Another process is breaking that holding at this moment (its mark is fresh): it is left to that one.
  const mark = `${lease}.breaking-999999999-1`;
  writeFileSync(mark, '');
  assert.equal(store.takeLease(id, process.pid), false, 'not taken while another breaks it');
  store.dropStaleLease(id);
  assert.equal(readFileSync(lease, 'utf8'), dead, 'nor dropped');
  // A mark past its grace was left by a breaker killed mid-way: the holding is broken, and the lease taken.
  const old = new Date(Date.now() - 60_000);
  utimesSync(mark, old, old);
  assert.equal(store.takeLease(id, process.pid), true);
  assert.ok(!existsSync(mark), 'the mark goes with the break');
  // A process that judged the dead holding stale before that, and looks only now, leaves the new lease alone.
  const mine = readFileSync(lease, 'utf8');
  breakStaleLease(lease, dead);
  assert.equal(readFileSync(lease, 'utf8'), mine, 'the live lease stays');
  assert.deepEqual(readdirSync(store.dir(id)).filter((name) => name.startsWith('lease')), ['lease'], 'no mark left');
});
