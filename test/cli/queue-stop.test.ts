// A `--queue` call stops when asked, not when a worker lets go of a chunk: a real redis-server and one real
// `stint worker` that holds the chunk it takes at or past HOLD_FROM while the hold file exists
// (STINT_TEST_HOLD_FILE), so the call's fold waits on it. SIGINT, SIGTERM or the end of the budget: the call
// answers while the hold file still exists (that is the proof it did not wait for the chunk; no wall time is
// asserted), then, the hold gone, its continue_command run verbatim until it ends gives the whole `data` of
// `--budget 0`, byte for byte (an import: the table, row for row). Each test ends with Redis holding no chunk
// job and no live key of any run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import type { Envelope } from '../../src/contract/envelope.js';
import { writeBigCsv } from '../helpers/big-csv.js';
import { STINT_BIN } from '../helpers/paths.js';
import { queueLeft } from '../helpers/queue-state.js';
import { startWorkers, until, type WorkerProcess } from '../helpers/queue-worker-process.js';
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv, envelopeOf, runJson, runShell, type CliRun } from '../helpers/run-cli.js';
import { tableRecords } from '../helpers/table-rows.js';
import { assertSameAnswer } from '../helpers/same-answer.js';
import { tempWorld } from '../helpers/temp-world.js';

const missing = redisMissing();
const skip = missing ? `the queue stop tests skip: ${missing}` : false;
if (missing) console.log(`# ${skip}`);
const world = tempWorld('queue-stop');
const input = world.path('data.csv');
const size = writeBigCsv(input, 2 * 1024 * 1024, 11);
const CHUNK = 64 * 1024;
/** The held chunk lies past a third of the file: the fold has safe points behind it when it waits on it. */
const HOLD_FROM = Math.floor(size / 3);
/** A guard on a loop of continuations that never ends, not a measure. */
const MAX_CALLS = 50;
let redis: RedisServer;
let whole: unknown;
let homes = 0;
const home = () => world.path(`home-${++homes}`);

before(async () => {
  if (missing) return;
  redis = await startRedis();
  const { envelope } = await runJson(['analyze', input, '--budget', '0', '--chunk-size', String(CHUNK)], {
    env: { STINT_HOME: home() },
  });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  whole = envelope.data;
});
after(async () => redis?.stop());

/** A call in the background: its heartbeat lines tell how far its kept progress went. */
class Call {
  private stderr = '';
  readonly done: Promise<CliRun>;
  private readonly child: ChildProcess;
  constructor(args: readonly string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [STINT_BIN, ...args, '--heartbeat-ms', '20'], {
      env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    this.child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    this.child.stderr!.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    const guard = setTimeout(() => this.child.kill('SIGKILL'), 240_000);
    this.done = new Promise((resolve) => this.child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr: this.stderr, program: STINT_BIN, env: cleanEnv(env) });
    }));
  }
  /** The bytes its last heartbeat line showed done (0 before any). */
  progress(): number {
    const shown = [...this.stderr.matchAll(/\[(\d+)\/\d+ bytes[,\]]/g)];
    return Number(shown.at(-1)?.[1] ?? 0);
  }
  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}

/** Redis holds no chunk job and no live key (a run's held chunk goes once its worker ends it). */
async function queueClean(what: string): Promise<void> {
  await until(async () => {
    const left = await queueLeft(redis.url);
    return left.jobs.length === 0 && left.live.length === 0;
  }, `${what}: Redis still holds chunk jobs or live keys`);
}

/** A worker that holds each chunk it takes at or past `from` while `hold` exists. */
async function holdingWorker(hold: string, from = HOLD_FROM): Promise<WorkerProcess> {
  writeFileSync(hold, '');
  const [worker] = await startWorkers(redis.url, 1, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: String(from) });
  return worker!;
}

/** The chunk the worker took at or past `from` (the one it holds while the hold file exists). */
const heldTake = (worker: WorkerProcess, from = HOLD_FROM) =>
  worker.of('take').find((e) => Number(e['start']) >= from);

/**
 * Where the chunks the worker ran end, taken in file order from the first: as far as the fold can get. Once
 * the worker (one chunk at a time) holds one, no other comes back, so this no longer moves.
 */
function foldable(worker: WorkerProcess): number {
  const ran = worker.of('chunk').map((e) => ({ start: Number(e['start']), end: Number(e['end']) }));
  const after = (at: number) => ran.find((chunk) => chunk.start === at && chunk.end > at);
  let end = Math.min(...ran.map((chunk) => chunk.start));
  for (let next = after(end); next; next = after(end)) end = next.end;
  return end;
}

/** continue_command run verbatim while it answers 14 (or once after a 130); the answer it ends with. */
async function continued(first: Envelope<Record<string, unknown>>, env: Record<string, string>) {
  let envelope = first;
  for (let calls = 0; calls === 0 || envelope.meta.exit_code === 14; calls++) {
    assert.ok(calls < MAX_CALLS, `still ${envelope.meta.exit_code} after ${calls} continuations`);
    const command = envelope.data?.['continue_command'];
    assert.equal(typeof command, 'string', JSON.stringify(envelope.data));
    envelope = envelopeOf(await runShell(String(command), env, 240_000));
  }
  return envelope;
}

const analyze = (budget: string) => ['analyze', input, '--budget', budget, '--queue', redis.url, '--chunk-size',
  String(CHUNK)];

/**
 * The call stopped by `signal` once its kept progress reached the held chunk (its fold waits on it): it
 * answers while the chunk is still held; the continuation ends with the whole answer.
 */
async function signalWhileHeld(signal: NodeJS.Signals, name: string, args = analyze('0')) {
  const hold = world.path(`hold-${name}`);
  const worker = await holdingWorker(hold);
  const env = { STINT_HOME: home(), STINT_CHECKPOINT_INTERVAL_MS: '0' };
  const call = new Call(args, env);
  await until(() => heldTake(worker) !== undefined && worker.of('chunk').length > 0, 'the worker holds a chunk');
  // Every chunk that came back is folded (and kept): the fold now waits on the held one, or one queued behind it.
  const reach = foldable(worker);
  await until(() => call.progress() >= reach, `progress reaches ${reach}, as far as the chunks back go`);
  call.kill(signal);
  const answered = await call.done;
  assert.ok(existsSync(hold), 'the call answered while the worker still held its chunk');
  const envelope = envelopeOf(answered);
  rmSync(hold);
  return { envelope, env, worker, reach };
}

test('SIGINT while a worker holds the chunk the fold waits on: 130 CANCELLED at once with continue_command;'
  + ' continued, the whole answer of --budget 0', { skip }, async () => {
  const { envelope, env, worker } = await signalWhileHeld('SIGINT', 'int');
  assert.equal(envelope.meta.exit_code, 130, JSON.stringify(envelope.error));
  assert.equal(envelope.error?.code, 'CANCELLED');
  assert.equal(envelope.data?.['partial'], true);
  assert.equal(envelope.data?.['state'], 'paused');
  const end = await continued(envelope, env);
  assert.equal(end.meta.exit_code, 0, JSON.stringify(end.error));
  assertSameAnswer(end.data, whole, "the continued run's answer is --budget 0's");
  await queueClean('an interrupted run continued to its end');
  await worker.stop();
});

test('SIGTERM while a worker holds the chunk the fold waits on: 14 at once, with all the progress back kept;'
  + ' continued, the whole answer of --budget 0', { skip }, async () => {
  const { envelope, env, worker, reach } = await signalWhileHeld('SIGTERM', 'term');
  assert.equal(envelope.meta.exit_code, 14, JSON.stringify(envelope.error));
  const progress = envelope.data?.['progress'] as { done: number };
  assert.ok(progress.done >= reach, `answered with ${progress.done} done; the chunks back reach ${reach}`);
  const end = await continued(envelope, env);
  assert.equal(end.meta.exit_code, 0, JSON.stringify(end.error));
  assertSameAnswer(end.data, whole, "the continued run's answer is --budget 0's");
  await queueClean('a terminated run continued to its end');
  await worker.stop();
});

test('the budget runs out while a worker holds a chunk: 14 with continue_command while it is held; continued,'
  + ' the whole answer of --budget 0', { skip }, async () => {
  const hold = world.path('hold-budget');
  // A few chunks in: folded before the worker takes the one it holds, well within a generous budget.
  const from = 4 * CHUNK;
  const worker = await holdingWorker(hold, from);
  const env = { STINT_HOME: home() };
  // The hold lasts until the call answered: its budget surely runs out while the chunk is held.
  const call = new Call(analyze('8s'), env);
  const answered = await call.done;
  assert.ok(existsSync(hold), 'the call answered while the worker still held its chunk');
  assert.ok(heldTake(worker, from), 'the worker had taken the chunk it holds');
  const envelope = envelopeOf(answered);
  assert.equal(envelope.meta.exit_code, 14, JSON.stringify(envelope.error));
  rmSync(hold);
  const end = await continued(envelope, env);
  assert.equal(end.meta.exit_code, 0, JSON.stringify(end.error));
  assertSameAnswer(end.data, whole, "the continued run's answer is --budget 0's");
  await queueClean('a run whose budget ran out, continued to its end');
  await worker.stop();
});

test('an import interrupted (SIGINT) while a worker holds a chunk: 130 at once, its commits kept; continued, the'
  + ' table holds every row once, as the import with --budget 0 writes it', { skip }, async () => {
  const table = world.path('stopped.db');
  const args = ['import', input, '--into', table, '--budget', '0', '--queue', redis.url, '--chunk-size',
    String(CHUNK)];
  const { envelope, env, worker } = await signalWhileHeld('SIGINT', 'import', args);
  assert.equal(envelope.meta.exit_code, 130, JSON.stringify(envelope.error));
  assert.equal(envelope.data?.['state'], 'paused');
  const end = await continued(envelope, env);
  assert.equal(end.meta.exit_code, 0, JSON.stringify(end.error));
  const local = world.path('local.db');
  const imported = await runJson(['import', input, '--into', local, '--budget', '0'], { env: { STINT_HOME: home() } });
  assert.equal(imported.envelope.meta.exit_code, 0, JSON.stringify(imported.envelope.error));
  const rows = await tableRecords(table, world.path('stopped.csv'), env);
  assert.deepEqual(rows, await tableRecords(local, world.path('local.csv'), env));
  await queueClean('an interrupted import continued to its end');
  await worker.stop();
});
