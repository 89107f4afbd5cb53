// analyze through a BullMQ queue on a real redis-server, with real `stint worker` processes: the answer equals
// the local run's, whatever dies mid-run (a worker, the coordinator, Redis). Workers use a 2 s lock (a dead
// worker's chunk runs again about 2-4 s after it died) instead of BullMQ's 30 s, to keep the file quick.
// STINT_TEST_HOLD_FILE makes a worker hold the chunks it takes (at or past STINT_TEST_HOLD_FROM) while the
// file exists: a kill then surely comes with chunks in hand. Each test ends by checking that Redis holds no
// chunk job and no live key of any run (queueClean). STINT_TEST_REDIS runs the file against a Redis of yours.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Envelope } from '../../src/contract/envelope.js';
import type { IncompleteData } from '../../src/contract/incomplete.js';
import { writeBigCsv } from '../helpers/big-csv.js';
import { random } from '../helpers/csv-generator.js';
import { programPath, STINT_BIN } from '../helpers/paths.js';
import { redisMissing, redisNotOwned, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { checkpointRecord, queueLeft, type QueueLeft } from '../helpers/queue-state.js';
import { envelopeOf, runCli, runJson, startCli } from '../helpers/run-cli.js';
import { until, WorkerProcess } from '../helpers/queue-worker-process.js';
import { tempWorld } from '../helpers/temp-world.js';
import { assertSameAnswer } from '../helpers/same-answer.js';

const missing = redisMissing();
const skip = missing ? `the queue tests skip: ${missing}` : false;
if (missing) console.log(`# ${skip}`);
/** The tests that restart or kill Redis run only on the suite's own redis-server. */
const ownRedis = skip || redisNotOwned() || false;
const world = tempWorld('queue');
const input = world.path('data.csv');
const size = writeBigCsv(input, 3 * 1024 * 1024, 7);
let redis: RedisServer;
/** The local run's data at each chunk size the tests use (the chunk size is part of the invocation). */
const local = new Map<string, unknown>();
let homes = 0;
const home = () => world.path(`home-${++homes}`);

before(async () => {
  if (missing) return;
  redis = await startRedis();
  for (const chunkSize of ['64KiB', '128KiB', '1MiB']) {
    const args = ['analyze', input, '--budget', '0', '--chunk-size', chunkSize];
    const { envelope } = await runJson(args, { env: { STINT_HOME: home() } });
    assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
    local.set(chunkSize, envelope.data);
  }
});
after(async () => redis?.stop());

/** The whole data of the local run at the same chunk size, byte for byte. */
function sameAnalysis(data: unknown, chunkSize = '64KiB'): void {
  assertSameAnswer(data, local.get(chunkSize), `the queue's answer is the local run's (chunks of ${chunkSize})`);
}

/**
 * Each test ends its runs, so once a chunk in a worker's hands has ended (and, after a coordinator killed with
 * kill -9, its live key expired and a worker swept), Redis holds no chunk job and no live key of any run.
 */
async function queueClean(what: string): Promise<void> {
  const limit = Date.now() + 60_000;
  for (;;) {
    const left: QueueLeft = await queueLeft(redis.url);
    if (left.jobs.length === 0 && left.live.length === 0) return;
    assert.ok(Date.now() < limit, `${what}: Redis still holds ${JSON.stringify(left)}`);
    await delay(100);
  }
}

/** A `stint worker` process (test/helpers/queue-worker-process.ts) with the checks these tests make of it. */
class Worker extends WorkerProcess {
  constructor(env: Record<string, string> = {}, extra: readonly string[] = [], program = STINT_BIN) {
    super(redis.url, env, { program, extra });
  }
  /** Its id as the coordinator counts it (unique per process), from its `started` line. */
  id(): string {
    return String(this.started()!['id']);
  }
  /** Drains (SIGTERM) and checks its answer: exit 0, the chunks it ran. */
  async drain(): Promise<number> {
    const { code, stdout, stderr } = await this.stop();
    const envelope = JSON.parse(stdout) as Envelope<{ chunks: number; drained: boolean }>;
    assert.equal(code, 0, stderr);
    assert.equal(envelope.data?.drained, true);
    return envelope.data!.chunks;
  }
}

async function workers(count: number, env: Record<string, string> = {}, extra: string[] = []): Promise<Worker[]> {
  const started = Array.from({ length: count }, () => new Worker(env, extra));
  await until(() => started.every((w) => w.of('started').length === 1), 'the workers start');
  return started;
}

const analyzeArgs = (chunkSize: string) => ['analyze', input, '--budget', '0', '--queue', redis.url,
  '--chunk-size', chunkSize];

test('analyze through the queue on 3 workers equals the local run, for several chunk sizes', { skip }, async () => {
  const pool = await workers(3);
  for (const chunkSize of ['64KiB', '1MiB']) {
    const { envelope } = await runJson(analyzeArgs(chunkSize), { env: { STINT_HOME: home() } });
    assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
    sameAnalysis(envelope.data, chunkSize);
  }
  const start = pool[0]!.of('started')[0]!;
  assert.equal(start['concurrency'], 1);
  assert.match(String(start['version']), /^\d+\.\d+\.\d+/);
  assert.equal(start['queue'], redis.url);
  await queueClean('two runs done');
  const chunks = (await Promise.all(pool.map((w) => w.drain()))).reduce((a, b) => a + b, 0);
  // The chunks ran on the workers, not on threads of the calls: 3 MiB in 64 KiB and in 1 MiB pieces.
  assert.ok(chunks >= Math.floor(size / 65536) + Math.floor(size / 1048576), `${chunks} chunks`);
});

test('a worker killed with kill -9 holding a chunk: its chunk runs again elsewhere, same answer', { skip },
  async () => {
    const hold = world.path('hold-kill');
    writeFileSync(hold, '');
    const [doomed] = await workers(1, { STINT_TEST_HOLD_FILE: hold });
    const others = await workers(2);
    const call = startCli(analyzeArgs('128KiB'), { env: { STINT_HOME: home() } });
    await until(() => doomed!.of('take').length > 0, 'the doomed worker takes a chunk');
    const held = doomed!.of('take')[0]!['job'];
    doomed!.child.kill('SIGKILL');
    const envelope = envelopeOf(await call.done);
    assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
    sameAnalysis(envelope.data, '128KiB');
    const rerun = others.flatMap((w) => w.of('chunk')).filter((e) => e['job'] === held);
    assert.equal(rerun.length, 1, 'the stalled chunk ran once more, on a live worker');
    await queueClean('a run done after a worker died holding a chunk');
    rmSync(hold);
    await Promise.all(others.map((w) => w.drain()));
  });

test('a worker whose chunk hangs past --chunk-timeout stops with WORKER_FAILED; the chunk runs elsewhere', { skip },
  async () => {
    const hold = world.path('hold-hang');
    writeFileSync(hold, '');
    const [hanging] = await workers(1, { STINT_TEST_HOLD_FILE: hold }, ['--chunk-timeout', '1s']);
    const others = await workers(1);
    const call = startCli(analyzeArgs('128KiB'), { env: { STINT_HOME: home() } });
    const ended = await hanging!.done;
    const answer = JSON.parse(ended.stdout) as Envelope;
    assert.equal(ended.code, 1);
    assert.equal(answer.error?.code, 'WORKER_FAILED');
    assert.equal(answer.error?.retryable, true);
    const held = hanging!.of('take')[0]!['job'];
    const envelope = envelopeOf(await call.done);
    assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
    sameAnalysis(envelope.data, '128KiB');
    assert.equal(others[0]!.of('chunk').filter((e) => e['job'] === held).length, 1, 'the hung chunk ran elsewhere');
    await queueClean('a run done after a worker hung');
    rmSync(hold);
    await others[0]!.drain();
  });

/** Files under the call's checkpoint folder: a checkpoint was saved. */
function checkpointSaved(stateHome: string): boolean {
  try {
    const root = join(stateHome, 'checkpoints');
    return readdirSync(root).some((key) => statSync(join(root, key)).isDirectory()
      && readdirSync(join(root, key)).length > 0);
  } catch {
    return false;
  }
}

test('the coordinator killed with kill -9 mid-run, 3 workers: the identical call resumes from its checkpoint, runs'
  + ' only what is missing, answers the same, and counts the workers of before the crash once', { skip }, async () => {
  const hold = world.path('hold-coordinator');
  writeFileSync(hold, '');
  const holdFrom = Math.floor(size / 2);
  const pool = await workers(3, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: String(holdFrom) });
  const env = { STINT_HOME: home(), STINT_CHECKPOINT_INTERVAL_MS: '0' };
  const first = startCli(analyzeArgs('64KiB'), { env });
  const heldPast = () => pool.some((w) => w.of('take').some((e) => Number(e['start']) >= holdFrom));
  const eachRan = () => pool.every((w) => w.of('chunk').length > 0);
  await until(() => heldPast() && eachRan() && checkpointSaved(env.STINT_HOME),
    'a checkpoint, each worker ran a chunk, and chunks held past half');
  first.kill('SIGKILL');
  await first.done;
  const saved = await checkpointRecord(env.STINT_HOME);
  assert.ok(saved && saved.progress.done > 0, `a watermark to resume from: ${JSON.stringify(saved?.progress)}`);
  const named = new Set(saved.workers ?? []);
  assert.ok(named.size > 0 && [...named].every((id) => pool.some((w) => w.id() === id)), [...named].join());
  // Killed: one worker the checkpoint names (it counts only through the checkpoint now) and any it does not
  // name, so every worker of the resumed call is named there (or, when none is left, a fresh one is not).
  const victim = pool.find((w) => named.has(w.id()))!;
  const doomed = pool.filter((w) => w === victim || !named.has(w.id()));
  doomed.forEach((w) => w.child.kill('SIGKILL'));
  const survivors = pool.filter((w) => !doomed.includes(w));
  const fresh = survivors.length === 0 ? await workers(1) : [];
  const resumedPool = [...survivors, ...fresh];
  const before = resumedPool.map((w) => w.of('chunk').length);
  const takenBefore = resumedPool.map((w) => w.of('take').length);
  rmSync(hold);
  const { envelope } = await runJson(analyzeArgs('64KiB'), { env });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  sameAnalysis(envelope.data);
  assert.equal(envelope.meta['workers'], named.size + fresh.length,
    `${named.size} workers in the checkpoint, ${fresh.length} fresh: each counted once`);
  const ran = resumedPool.flatMap((w, i) => w.of('chunk').slice(before[i]));
  const whole = Math.ceil(size / 65536);
  assert.ok(ran.length < whole, `the resumed run ran ${ran.length} chunks, the whole file has ${whole}`);
  const taken = resumedPool.flatMap((w, i) => w.of('take').slice(takenBefore[i])).map((e) => Number(e['start']));
  assert.ok(taken.length > 0);
  // Resumed from the checkpoint: nothing before its watermark was taken again.
  const from = Math.min(...taken);
  assert.ok(from >= saved.progress.done - 65536, `the resumed call took chunks from ${from}`);
  await queueClean('a resumed run done');
  await Promise.all(resumedPool.map((w) => w.drain()));
});

test('Redis restarted mid-run: the run ends correct, or with a coded retryable error', { skip: ownRedis }, async () => {
  const hold = world.path('hold-redis');
  writeFileSync(hold, '');
  const holdFrom = Math.floor(size / 3);
  const pool = await workers(2, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: String(holdFrom) });
  const env = { STINT_HOME: home() };
  const call = startCli(analyzeArgs('64KiB'), { env });
  await until(() => pool.some((w) => w.of('take').some((e) => Number(e['start']) >= holdFrom)), 'chunks held');
  await redis.restart();
  rmSync(hold);
  const envelope = envelopeOf(await call.done);
  if (envelope.meta.exit_code === 0) sameAnalysis(envelope.data);
  else {
    assert.equal(envelope.error?.retryable, true, JSON.stringify(envelope.error));
    const again = await runJson(analyzeArgs('64KiB'), { env });
    sameAnalysis(again.envelope.data);
  }
  await queueClean('a run ended after Redis restarted');
  await Promise.all(pool.map((w) => w.drain()));
});

test('Redis killed with kill -9 mid-run and started again from its AOF: correct, or a coded retryable error',
  { skip: ownRedis },
  async (t) => {
    const hold = world.path('hold-redis-crash');
    writeFileSync(hold, '');
    const holdFrom = Math.floor(size / 3);
    const pool = await workers(2, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: String(holdFrom) });
    const env = { STINT_HOME: home() };
    const call = startCli(analyzeArgs('64KiB'), { env });
    await until(() => pool.every((w) => w.of('take').some((e) => Number(e['start']) >= holdFrom)), 'chunks held');
    await redis.crash();
    rmSync(hold);
    const envelope = envelopeOf(await call.done);
    t.diagnostic(`after the crash: exit ${envelope.meta.exit_code} ${envelope.error?.code ?? ''}`);
    if (envelope.meta.exit_code === 0) sameAnalysis(envelope.data);
    else {
      assert.equal(envelope.error?.retryable, true, JSON.stringify(envelope.error));
      assert.match(String(envelope.error?.code), /^[A-Z_]+$/);
      const again = await runJson(analyzeArgs('64KiB'), { env });
      assert.equal(again.envelope.meta.exit_code, 0, JSON.stringify(again.envelope.error));
      sameAnalysis(again.envelope.data);
    }
    await queueClean('a run ended after Redis was killed');
    await Promise.all(pool.map((w) => w.drain()));
  });

test('Redis gone for good mid-run: WORKER_FAILED, retryable, once the outage limit passed; the same call ends'
  + ' correct once Redis is back', { skip: ownRedis }, async () => {
  const hold = world.path('hold-redis-gone');
  writeFileSync(hold, '');
  const holdFrom = Math.floor(size / 3);
  const [held] = await workers(1, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: String(holdFrom) });
  // The limit shortened from 30 s (a test knob): the answer, not its timing, is what is checked.
  const env = { STINT_HOME: home(), STINT_TEST_QUEUE_OUTAGE_MS: '3000' };
  const call = startCli(analyzeArgs('64KiB'), { env });
  await until(() => held!.of('take').some((e) => Number(e['start']) >= holdFrom), 'a chunk held');
  await redis.stop();
  const envelope = envelopeOf(await call.done);
  await redis.restart();
  assert.equal(envelope.error?.code, 'WORKER_FAILED', JSON.stringify(envelope.error));
  assert.equal(envelope.error?.retryable, true);
  assert.match(envelope.error!.message, /stayed out of reach/);
  rmSync(hold);
  const again = await runJson(analyzeArgs('64KiB'), { env });
  assert.equal(again.envelope.meta.exit_code, 0, JSON.stringify(again.envelope.error));
  sameAnalysis(again.envelope.data);
  await queueClean('a run done after Redis was gone');
  await held!.drain();
});

test('a queued run names how many workers took part: meta.workers, and `job status` (JSON and text)', { skip },
  async () => {
    const hold = world.path('hold-count');
    writeFileSync(hold, '');
    // Each worker holds the first chunk it takes: both surely take part once the hold ends.
    const pool = await workers(2, { STINT_TEST_HOLD_FILE: hold });
    const env = { STINT_HOME: home() };
    const args = ['analyze', input, '--budget', '1s', '--queue', redis.url, '--chunk-size', '64KiB'];
    const first = await runJson(args, { env });
    assert.equal(first.envelope.meta.exit_code, 14, JSON.stringify(first.envelope.error));
    const id = (first.envelope.data as unknown as IncompleteData).job_id;
    await until(() => pool.every((w) => w.of('take').length > 0), 'both workers take a chunk');
    rmSync(hold);
    const waited = await runJson(['job', 'wait', id, '--budget', '0'], { env });
    assert.equal(waited.envelope.meta.exit_code, 0, JSON.stringify(waited.envelope.error));
    sameAnalysis(waited.envelope.data);
    assert.equal(waited.envelope.meta['workers'], 2);
    const status = await runJson(['job', 'status', id], { env });
    assert.equal(status.envelope.meta['workers'], 2);
    const text = await runCli(['job', 'status', id, '--format', 'text'], { env });
    assert.match(text.stdout, /^workers +2$/m);
    await Promise.all(pool.map((w) => w.drain()));
  });

test('a queued run shows progress.workers while it runs (job list, job status), growing as workers take part',
  { skip }, async () => {
    const hold = world.path('hold-grow');
    writeFileSync(hold, '');
    const holdFrom = Math.floor(size / 2);
    // The first worker runs the chunks before half and holds the first it takes past it: the run cannot end.
    const [held] = await workers(1, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: String(holdFrom) });
    const env = { STINT_HOME: home() };
    const call = startCli(analyzeArgs('64KiB'), { env });
    let ended = false;
    void call.done.then(() => (ended = true));
    const shown: number[] = [];
    let id = '';
    const showsWorkers = (count: number) => async () => {
      const list = await runJson(['job', 'list'], { env });
      const job = (list.envelope.data as unknown as { job_id: string; progress?: { workers?: number } }[])[0];
      assert.ok(!ended, 'the call still runs');
      id = job?.job_id ?? id;
      const now = job?.progress?.workers;
      if (now !== undefined && now !== shown.at(-1)) shown.push(now);
      return now === count;
    };
    await until(() => held!.of('take').some((e) => Number(e['start']) >= holdFrom), 'a chunk held past half');
    await until(showsWorkers(1), 'job list shows 1 worker');
    // A second worker runs chunks of the window past the held one, then holds one a little further on.
    const further = String(holdFrom + 4 * 65536);
    const [joined] = await workers(1, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: further });
    await until(() => joined!.of('chunk').length > 0, 'the second worker ran a chunk');
    await until(showsWorkers(2), 'job list shows 2 workers');
    assert.deepEqual(shown, [1, 2]);
    const status = await runJson(['job', 'status', id], { env });
    assert.equal(status.envelope.meta.exit_code, 14, JSON.stringify(status.envelope.error));
    assert.equal((status.envelope.data as unknown as IncompleteData).progress.workers, 2);
    rmSync(hold);
    const envelope = envelopeOf(await call.done);
    assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
    sameAnalysis(envelope.data);
    assert.equal(envelope.meta['workers'], 2);
    await queueClean('a run done');
    await Promise.all([held!.drain(), joined!.drain()]);
  });

test('nothing of a run stays in Redis once it is paused (SIGTERM) or cancelled, even chunks held then',
  { skip }, async () => {
    const hold = world.path('hold-ends');
    writeFileSync(hold, '');
    const holdFrom = Math.floor(size / 3);
    const [held] = await workers(1, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: String(holdFrom) });
    // A chunk job's id begins with its run's key (and the worker may run the paused import's chunks later on).
    const runOf = (job: unknown) => String(job).split('-')[0];
    const heldOf = (run?: string) => held!.of('take')
      .filter((e) => Number(e['start']) >= holdFrom && (run === undefined || runOf(e['job']) !== run));
    const env = { STINT_HOME: home() };
    // An import stopped by SIGTERM pauses (INCOMPLETE, as at its budget's end) while the worker holds a chunk
    // (locked: no one but the worker can remove it) and others wait in the queue; nothing of it stays.
    const table = world.path('paused.db');
    const importArgs = ['import', input, '--into', table, '--budget', '0', '--queue', redis.url,
      '--chunk-size', '64KiB'];
    const stopped = startCli(importArgs, { env });
    await until(() => heldOf().length === 1, 'the worker holds a chunk of the import');
    stopped.kill('SIGTERM');
    const paused = envelopeOf(await stopped.done);
    assert.equal(paused.meta.exit_code, 14, JSON.stringify(paused.error));
    assert.equal((paused.data as unknown as IncompleteData).state, 'paused');
    const heldJob = String(heldOf()[0]!['job']);
    const importRun = runOf(heldJob);
    const left = await queueLeft(redis.url);
    assert.ok(left.jobs.some((job) => job.id === heldJob), `the held chunk is in Redis: ${JSON.stringify(left)}`);
    rmSync(hold);
    await until(() => held!.of('chunk').some((e) => Number(e['start']) >= holdFrom), 'the held chunk ends');
    await queueClean('an import paused by SIGTERM');

    // A detached analyze cancelled while the worker holds a chunk.
    writeFileSync(hold, '');
    const analyze = ['analyze', input, '--budget', '1s', '--queue', redis.url, '--chunk-size', '64KiB'];
    const running = await runJson(analyze, { env });
    assert.equal(running.envelope.meta.exit_code, 14, JSON.stringify(running.envelope.error));
    await until(() => heldOf(importRun).length > 0, 'the worker holds a chunk of the analyze');
    const id = (running.envelope.data as unknown as IncompleteData).job_id;
    const cancelled = await runJson(['job', 'cancel', id, '--yes'], { env });
    assert.equal(cancelled.envelope.meta.exit_code, 0, JSON.stringify(cancelled.envelope.error));
    rmSync(hold);
    await queueClean('an analyze cancelled');
    await held!.drain();
  });

test('a worker that sees another file at the path answers INPUT_NOT_SHARED', { skip }, async () => {
  const copy = world.path('copy.csv');
  copyFileSync(input, copy);
  const hold = world.path('hold-shared');
  writeFileSync(hold, '');
  const pool = await workers(1, { STINT_TEST_HOLD_FILE: hold });
  const call = startCli(['analyze', copy, '--budget', '0', '--queue', redis.url], { env: { STINT_HOME: home() } });
  await until(() => pool[0]!.of('take').length > 0, 'the worker takes a chunk');
  utimesSync(copy, new Date(2001, 0, 1), new Date(2001, 0, 1)); // the coordinator saw another mtime
  rmSync(hold);
  const envelope = envelopeOf(await call.done);
  assert.equal(envelope.meta.exit_code, 4);
  assert.equal(envelope.error?.code, 'INPUT_NOT_SHARED');
  await queueClean('a failed run');
  await pool[0]!.drain();
});

test('Redis out of reach at start: QUEUE_UNREACHABLE (12) naming the URL, for a call and for a worker', { skip },
  async () => {
    const url = 'redis://127.0.0.1:1';
    const { envelope } = await runJson(['analyze', input, '--budget', '0', '--queue', url], {
      env: { STINT_HOME: home() },
    });
    assert.equal(envelope.meta.exit_code, 12);
    assert.equal(envelope.error?.code, 'QUEUE_UNREACHABLE');
    assert.equal(envelope.error?.retryable, true);
    assert.match(envelope.error!.message, /redis:\/\/127\.0\.0\.1:1/);
    const worker = await runJson(['worker'], { env: { STINT_QUEUE: url } });
    assert.equal(worker.envelope.meta.exit_code, 12);
    assert.equal(worker.envelope.error?.code, 'QUEUE_UNREACHABLE');
  });

/** Kills in the random schedule of the import test: coordinators and workers, at chunk counts drawn from the seed. */
const KILLS = 6;
/** The seed of that schedule: QUEUE_KILL_SEED replays one (each assertion message names it). */
const killSeed = Number(process.env['QUEUE_KILL_SEED'] ?? Date.now() % 1_000_000);

test('import through the queue under a seeded random schedule of kill -9 (workers and coordinators): every row'
  + ' exactly once', { skip }, async (t) => {
  const seed = `QUEUE_KILL_SEED=${killSeed}`;
  t.diagnostic(seed);
  const env = { STINT_HOME: home() };
  const exported = async (table: string) => {
    const out = `${table}.csv`;
    const { envelope } = await runJson(['export', table, '--output', out, '--budget', '0'], { env });
    assert.equal(envelope.meta.exit_code, 0, `${seed} ${JSON.stringify(envelope.error)}`);
    return readFileSync(out, 'utf8');
  };
  const localTable = world.path('local.db');
  const imported = await runJson(['import', input, '--into', localTable, '--budget', '0'], { env });
  assert.equal(imported.envelope.meta.exit_code, 0, JSON.stringify(imported.envelope.error));

  const table = world.path('queued.db');
  const args = ['import', input, '--into', table, '--budget', '0', '--queue', redis.url, '--chunk-size', '32KiB'];
  const rnd = random(killSeed);
  const pool = await workers(3);
  const chunksDone = () => pool.reduce((sum, w) => sum + w.of('chunk').length, 0);
  let call = startCli(args, { env });
  let ended = false;
  void call.done.then(() => (ended = true));
  const done: string[] = [];
  // One kill of each kind first (in the seed's order), then either; each once the workers reported 1-6 chunks more.
  const firstCoordinator = rnd() < 0.5;
  for (let k = 0; k < KILLS && !ended; k++) {
    const coordinator = k < 2 ? (k === 0) === firstCoordinator : rnd() < 0.5;
    const target = chunksDone() + 1 + Math.floor(rnd() * 6);
    await until(() => ended || chunksDone() >= target, `${seed}: the workers report ${target} chunks`);
    if (ended) break;
    if (coordinator) {
      call.kill('SIGKILL');
      await call.done;
      ended = false;
      call = startCli(args, { env });
      void call.done.then(() => (ended = true));
    } else {
      const alive = pool.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
      const doomed = alive[Math.floor(rnd() * alive.length)]!;
      doomed.child.kill('SIGKILL');
      pool.push(...await workers(1));
    }
    done.push(`${coordinator ? 'coordinator' : 'worker'} after ${target} chunks`);
  }
  t.diagnostic(`${seed}: ${done.join(', ')}`);
  assert.ok(done.length >= 2, `${seed}: the run ended after ${done.length} kills (${done.join(', ')})`);
  let last = envelopeOf(await call.done);
  // A resumed call may answer a retryable failure (a chunk that stalled too often): the same call again.
  for (let again = 0; again < 3 && last.meta.exit_code !== 0 && last.error?.retryable; again++) {
    last = (await runJson(args, { env })).envelope;
  }
  assert.equal(last.meta.exit_code, 0, `${seed} ${JSON.stringify(last.error)}`);
  assert.equal(await exported(table), await exported(localTable), `${seed}: every row exactly once`);
  await queueClean(`${seed}: an import done after kills`);
  const alive = pool.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  await Promise.all(alive.map((w) => w.drain()));
});

test('export runs no chunks: --queue is an unknown flag there (ARG_ERROR), and STINT_QUEUE leaves it as it is',
  async () => {
    const env = { STINT_HOME: home() };
    const table = world.path('export-queue.db');
    const imported = await runJson(['import', input, '--into', table, '--budget', '0'], { env });
    assert.equal(imported.envelope.meta.exit_code, 0, JSON.stringify(imported.envelope.error));
    const out = world.path('export-queue.csv');
    const refused = await runJson(['export', table, '--output', out, '--queue', 'redis://127.0.0.1:1'], { env });
    assert.equal(refused.envelope.meta.exit_code, 2);
    assert.equal(refused.envelope.error?.code, 'ARG_ERROR');
    assert.ok(refused.envelope.error?.errors?.some((e) => e.field === '--queue' && e.reason === 'unknown_flag'));
    // A queue no one can reach, set for the whole shell: export neither uses it nor fails on it.
    const queued = await runJson(['export', table, '--output', out, '--budget', '0'], {
      env: { ...env, STINT_QUEUE: 'redis://127.0.0.1:1' },
    });
    assert.equal(queued.envelope.meta.exit_code, 0, JSON.stringify(queued.envelope.error));
  });

test('a program built on stint gets `worker` and --queue: its own map runs there, same answer', { skip }, async () => {
  const program = programPath('crash-tool');
  const worker = new Worker({}, [], program);
  await until(() => worker.of('started').length === 1, 'the program\'s worker starts');
  assert.equal(worker.of('started')[0]!['version'], '1.0.0');
  const env = { STINT_HOME: home() };
  const queued = await runJson(['count', input, '--budget', '0', '--queue', redis.url], { program, env });
  const here = await runJson(['count', input, '--budget', '0'], { program, env: { STINT_HOME: home() } });
  assert.equal(queued.envelope.meta.exit_code, 0, JSON.stringify(queued.envelope.error));
  assert.deepEqual(queued.envelope.data, here.envelope.data);
  assert.ok(worker.of('chunk').length > 0, 'the chunks ran on the program\'s worker');
  await queueClean('a program\'s run done');
  await worker.drain();
});
