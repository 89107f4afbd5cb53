import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { identityOf, isAlive, parseIdentity, parseProcStat } from '../../../src/runtime/jobs/process-identity.js';
import { JobStore } from '../../../src/runtime/jobs/job-store.js';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import type { JobRecord } from '../../../src/runtime/jobs/job-record.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('process-identity');
const LINUX = existsSync('/proc/self/stat');

/** A /proc/<pid>/stat line: fields 3.. after the name, field 22 the start time. */
function statLine(name: string, state: string, start: number): string {
  const fields = [state, ...Array.from({ length: 18 }, (_, k) => String(k + 4)), String(start), '99', '100'];
  return `4242 (${name}) ${fields.join(' ')}\n`;
}

test('the start time is field 22, counted after the last ")" (a name may hold ") " and spaces)', () => {
  assert.deepEqual(parseProcStat(statLine('sleep', 'S', 123456)), { state: 'S', start: 123456 });
  assert.deepEqual(parseProcStat(statLine('a) b (c) R', 'Z', 77)), { state: 'Z', start: 77 });
  assert.equal(parseProcStat('4242 (cut'), undefined, 'no closing parenthesis');
  assert.equal(parseProcStat('4242 (x) S 1 2'), undefined, 'truncated before field 22');
});

test('pid files: the identity as JSON, or a bare pid as older versions wrote it; anything else is unreadable', () => {
  assert.deepEqual(parseIdentity('{"pid":12,"start":34}'), { pid: 12, start: 34 });
  assert.deepEqual(parseIdentity('12\n'), { pid: 12 });
  assert.deepEqual(parseIdentity('{"pid":12}'), { pid: 12 });
  for (const text of ['', '0', '{"pid":', 'null', '{"pid":-3}', '{"start":5}', 'abc']) assert.equal(parseIdentity(text), undefined, text);
});

test('a live process is alive under its own identity, not under another start time; a dead pid is gone', async () => {
  const self = identityOf(process.pid);
  assert.equal(isAlive(self), true);
  assert.equal(isAlive({ pid: process.pid }), true, 'pid only: alive when the pid is');
  if (LINUX) {
    assert.equal(typeof self.start, 'number');
    assert.equal(isAlive({ pid: process.pid, start: self.start! + 1 }), false, 'the same pid started at another time is another process');
  }
  const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
  const identity = identityOf(child.pid!);
  assert.equal(isAlive(identity), true);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('exit', resolve));
  for (let waited = 0; isAlive(identity); waited += 10) {
    assert.ok(waited < 10_000, 'a killed child is gone once reaped');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(isAlive(undefined), false);
  assert.equal(isAlive({ pid: 0 }), false);
});

function record(id: string): JobRecord {
  return {
    id, key: `key-${id}`, program: 'stint', command: ['analyze'], argv: [], cwd: '/', programWords: ['stint'],
    detach: true, resume: true, writes: false, idleTimeoutMs: 1000, timeoutMs: 0, createdAt: 0,
  };
}

test('a lease naming a live process of another start time is stale and taken over; one of this process holds', () => {
  const store = new JobStore(world.path('lease'));
  store.create(record('analyze-000000a1'), { state: JobState.Paused, startedAt: 0, updatedAt: 0, progressAt: 0 });
  const lease = join(store.dir('analyze-000000a1'), 'lease');
  const self = identityOf(process.pid);
  assert.ok(LINUX && self.start !== undefined, 'stint runs its jobs on Linux, where /proc gives start times');
  writeFileSync(lease, JSON.stringify({ pid: process.pid, start: self.start! - 1 }));
  assert.equal(store.takeLease('analyze-000000a1', process.pid), true, 'pid reused: the holder is gone');
  assert.deepEqual(parseIdentity(readFileSync(lease, 'utf8')), self, 'the new lease names this process with its start time');
  assert.equal(store.takeLease('analyze-000000a1', process.pid), false, 'now held by a live process');
  store.releaseLease('analyze-000000a1', process.pid);
  writeFileSync(lease, String(process.pid));
  assert.equal(store.takeLease('analyze-000000a1', process.pid), false, 'an old pid-only lease of a live pid holds');
});

test('an empty or damaged lease is being written for a moment, then abandoned', () => {
  const store = new JobStore(world.path('lease-empty'));
  store.create(record('analyze-000000a2'), { state: JobState.Paused, startedAt: 0, updatedAt: 0, progressAt: 0 });
  const lease = join(store.dir('analyze-000000a2'), 'lease');
  writeFileSync(lease, '');
  assert.equal(store.takeLease('analyze-000000a2', process.pid), false, 'fresh: its writer may be mid-write');
  const old = new Date(Date.now() - 60_000);
  utimesSync(lease, old, old);
  assert.equal(store.takeLease('analyze-000000a2', process.pid), true, 'old: its writer died mid-write');
});
