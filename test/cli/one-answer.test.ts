// One answer, however the work was split: the built stint analyzes a 200 MB file (quoted fields, CRLF, integers,
// decimals, strings, dates, nulls) in every way a caller can run it, and each way gives the whole `data` of
// `--budget 0` on one thread, byte for byte as JSON, estimates included. Its gzip and the same bytes on standard
// input give the same analysis (their citation names another input). An import continued at 300 ms budgets
// gives the table of one uninterrupted import, row for row.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import type { Envelope } from '../../src/contract/envelope.js';
import { heartbeatDone } from '../helpers/fault-progress.js';
import { writeMixedCsv } from '../helpers/mixed-csv.js';
import { STINT_BIN } from '../helpers/paths.js';
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv, envelopeOf, runJson, runShell, startCli } from '../helpers/run-cli.js';
import { assertSameAnswer } from '../helpers/same-answer.js';
import { tempWorld } from '../helpers/temp-world.js';

const MiB = 1024 * 1024;
const world = tempWorld('one-answer');
const file = world.path('mixed.csv');
const gzipped = world.path('mixed.csv.gz');
const missing = redisMissing();
let homes = 0;
/** Each run owns its state folder; a checkpoint at every safe point, so stops land anywhere. */
const freshHome = (extra: Record<string, string> = {}) =>
  ({ STINT_HOME: world.path(`home-${++homes}`), STINT_CHECKPOINT_INTERVAL_MS: '0', ...extra });
const stint = `'${process.execPath}' '${STINT_BIN}'`;
type Data = Record<string, unknown>;
type Entry = { a: unknown; cite: { lines: unknown } };
let reference: Data;

before(async () => {
  writeMixedCsv(file, 200 * MiB);
  await pipeline(createReadStream(file), createGzip({ level: 1 }), createWriteStream(gzipped));
  const { envelope } = await runJson(['analyze', file, '--budget', '0', '--workers', '1'], {
    env: freshHome(), killAfterMs: 600_000,
  });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  reference = envelope.data!;
});

const entryOf = (data: Data | null) => (data!['established'] as Entry[])[0]!;
const progressOf = (envelope: Envelope<Data>) => (envelope.data as { progress: { done: number } }).progress.done;
type Status = { pid: number; progress: { done: number } };
const statusOf = (home: string, id: string): Status =>
  JSON.parse(readFileSync(`${home}/jobs/${id}/status.json`, 'utf8')) as Status;
/** The done of the first `--heartbeat-ms` line: `... [12582912/30000000 bytes, 20586 rows]`. */
function firstHeartbeat(stderr: string): number {
  const done = stderr.split('\n').map(heartbeatDone).find((figure) => figure !== undefined);
  assert.ok(done !== undefined, `a heartbeat line in ${stderr.slice(0, 300)}`);
  return done;
}
const incomplete = (envelope: Envelope<Data>) => envelope.data as { continue_command: string; job_id: string };

/** The agent's loop: continue_command until the answer is not 14; the last answer's envelope. */
async function continued(first: Envelope<Data>, env: Record<string, string>): Promise<Envelope<Data>> {
  let envelope = first;
  for (let calls = 1; envelope.meta.exit_code === 14; calls++) {
    assert.ok(calls < 2000, 'the loop ends');
    envelope = envelopeOf(await runShell(incomplete(envelope).continue_command, env, 600_000));
  }
  return envelope;
}

/** The analysis of a run that ended, checked for exit 0. */
function finished(envelope: Envelope<Data>): Data {
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  return envelope.data!;
}

/** Waits on a fact: the job under `stateDir` reports at least `share` of its bytes done. */
async function progressReaches(stateDir: string, share: number): Promise<void> {
  const limit = Date.now() + 300_000;
  for (;;) {
    assert.ok(Date.now() < limit, `the run never reached ${share * 100} %`);
    const jobs = existsSync(`${stateDir}/jobs`) ? readdirSync(`${stateDir}/jobs`) : [];
    for (const job of jobs) {
      try {
        const { progress } = JSON.parse(readFileSync(`${stateDir}/jobs/${job}/status.json`, 'utf8')) as {
          progress?: { done: number; total?: number };
        };
        if (progress?.total && progress.done >= share * progress.total) return;
      } catch {
        // written as we read: look again
      }
    }
    await delay(20);
  }
}

test('two worker threads give the answer of one', async () => {
  const { envelope } = await runJson(['analyze', file, '--budget', '0', '--workers', '2'], {
    env: freshHome(), killAfterMs: 600_000,
  });
  assertSameAnswer(finished(envelope), reference, '--workers 2');
});

test('a background job followed with job wait at 300 ms budgets gives the same answer', async () => {
  const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
  const { envelope } = await runJson(['analyze', file, '--budget', '300ms'], { env });
  assert.equal(envelope.meta.exit_code, 14, 'handed to a background job');
  assert.match(incomplete(envelope).continue_command, / job wait analyze-[0-9a-f]{8}$/);
  assertSameAnswer(finished(await continued(envelope, env)), reference, 'job wait loop');
});

test('SIGINT at about 30 %, then the identical call, gives the same answer', async () => {
  const env = freshHome();
  const args = ['analyze', file, '--budget', '0'];
  const running = startCli(args, { env, killAfterMs: 600_000 });
  await progressReaches(env.STINT_HOME, 0.3);
  running.kill('SIGINT');
  const stopped = await running.done;
  assert.equal(stopped.code, 130, stopped.stdout);
  const kept = statusOf(env.STINT_HOME, incomplete(envelopeOf(stopped)).job_id).progress.done;
  assert.ok(kept > 0, 'the stop kept progress');
  // --heartbeat-ms is not part of the invocation: the same call, whose first report shows where it resumed.
  const resumed = await runJson([...args, '--heartbeat-ms', '1'], { env, killAfterMs: 600_000 });
  assert.ok(firstHeartbeat(resumed.run.stderr) >= kept, `resumed from ${kept}, not started over`);
  assert.deepEqual(resumed.envelope.warnings.map((w) => w.code), []);
  assertSameAnswer(finished(resumed.envelope), reference, 'after SIGINT');
});

test('kill -9 of the supervisor, then the identical call, gives the same answer', async () => {
  const env = freshHome({ AGENT_CALL_BUDGET_MS: '300' });
  const args = ['analyze', file, '--budget', '300ms'];
  const first = await runJson(args, { env });
  assert.equal(first.envelope.meta.exit_code, 14);
  const id = incomplete(first.envelope).job_id;
  await progressReaches(env.STINT_HOME, 0.4);
  const { pid, progress } = statusOf(env.STINT_HOME, id);
  process.kill(pid, 'SIGKILL');
  const again = await runJson(args, { env });
  assert.notEqual(incomplete(again.envelope).job_id, id, 'the identical call starts a new job from the checkpoint');
  // What a status publishes is kept: the new job starts at least where the killed one was seen.
  assert.ok(progressOf(again.envelope) >= progress.done, `resumed from ${progress.done}, not started over`);
  assertSameAnswer(finished(await continued(again.envelope, env)), reference, 'after kill -9');
});

test('stint follow with 1 s budgets gives the same answer', async () => {
  const env = freshHome({ AGENT_CALL_BUDGET_MS: '1000' });
  const { envelope } = await runJson(['follow', '--', process.execPath, STINT_BIN, 'analyze', file], {
    env, killAfterMs: 600_000,
  });
  assertSameAnswer(finished(envelope), reference, 'stint follow');
});

test('its gzip, and the same bytes on standard input, give the same analysis', async () => {
  const expected = entryOf(reference);
  const gz = await runJson(['analyze', gzipped, '--budget', '0'], { env: freshHome(), killAfterMs: 600_000 });
  const piped = envelopeOf(await runShell(`${stint} analyze - --budget 0 < '${file}'`, freshHome(), 600_000));
  for (const [how, envelope] of [['gzip', gz.envelope], ['standard input', piped]] as const) {
    const entry = entryOf(finished(envelope));
    assertSameAnswer(entry.a, expected.a, how);
    assert.deepEqual(entry.cite.lines, expected.cite.lines, how);
  }
});

/** A `stint worker` process and the JSON lines it writes on stderr. */
function queueWorker(url: string): { child: ChildProcess; events: { event: string }[] } {
  const args = ['worker', '--queue', url, '--concurrency', '1', '--lock-duration', '2s', '--format', 'json'];
  const child = spawn(process.execPath, [STINT_BIN, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const events: { event: string }[] = [];
  let partial = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (line.startsWith('{')) events.push(JSON.parse(line) as { event: string });
  });
  child.stdout!.resume();
  return { child, events };
}

async function until(fact: () => boolean, what: string): Promise<void> {
  for (const limit = Date.now() + 120_000; !fact(); await delay(20)) assert.ok(Date.now() < limit, what);
}

test('--queue on 2 workers, one killed with kill -9 mid-run, gives the same answer',
  { skip: missing ? `needs redis-server: ${missing}` : false }, async () => {
    const redis: RedisServer = await startRedis();
    after(() => redis.stop());
    const [doomed, survivor] = [queueWorker(redis.url), queueWorker(redis.url)];
    const ended = new Promise((resolve) => survivor!.child.on('close', resolve));
    try {
      const call = startCli(['analyze', file, '--budget', '0', '--queue', redis.url], {
        env: freshHome(), killAfterMs: 600_000,
      });
      await until(() => doomed!.events.filter((e) => e.event === 'chunk').length >= 3, 'a worker runs chunks');
      await until(() => doomed!.events.at(-1)?.event === 'take', 'the doomed worker holds a chunk');
      doomed!.child.kill('SIGKILL');
      assertSameAnswer(finished(envelopeOf(await call.done)), reference, '--queue, a worker killed');
      assert.ok(survivor!.events.some((e) => e.event === 'chunk'), 'the other worker ran chunks too');
    } finally {
      doomed!.child.kill('SIGKILL');
      survivor!.child.kill('SIGTERM');
      await ended;
    }
  });

test('an import paused and continued at 300 ms budgets exports the table of one uninterrupted import', async () => {
  const input = world.path('import.csv');
  writeMixedCsv(input, 4 * MiB, 11);
  /** The exported table after an import at this budget, and the first call's exit code. */
  const exported = async (how: string, budget: string): Promise<{ table: string; first: number }> => {
    const env = freshHome({ AGENT_CALL_BUDGET_MS: budget });
    const db = world.path(`${how}.db`);
    const args = ['import', input, '--into', db, '--chunk-size', '64KiB', '--budget', `${budget}ms`];
    const first = await runJson(args, { env, killAfterMs: 600_000 });
    finished(await continued(first.envelope, env));
    const csv = world.path(`${how}.csv`);
    finished((await runJson(['export', db, '--output', csv, '--budget', '0'], { env, killAfterMs: 600_000 })).envelope);
    return { table: readFileSync(csv, 'utf8'), first: first.envelope.meta.exit_code };
  };
  const whole = await exported('whole', '0');
  const paused = await exported('paused', '300');
  assert.equal(paused.first, 14, 'the import paused');
  assert.ok(whole.table.split('\n').length > 80_000, 'the table holds the file');
  assert.equal(paused.table, whole.table, 'the same rows, in the same order');
});
