// The queue as it must be to run across machines, on real redis-servers and real `stint worker` processes:
// a job runs only a map the program registers (never a module a job names); with STINT_QUEUE_SECRET a forged
// or altered job or result is dropped and the answer stays right; nothing of a run's data stays in Redis
// however it ends; a worker that reads other bytes under the same path, size and mtime is left out (the answer
// equals the local run's, a warning names it); namespaces keep two programs' chunks apart; `worker list`; a
// worker of another build takes none of the chunks; refused credentials answer AUTH_REQUIRED (8) and a user
// without a right PERMISSION_DENIED (7), with the password in no output and no file; SIGTERM early ends it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Queue, QueueEvents, Worker as BullWorker } from 'bullmq';
import { encodeClone } from '../../src/engine/queue/chunk-codec.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { queueLeft } from '../helpers/queue-state.js';
import { startWorkers, until, WorkerProcess } from '../helpers/queue-worker-process.js';
import { redisMissing, redisNotOwned, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { scanRedis, searchable } from '../helpers/redis-scan.js';
import { envelopeOf, runCli, runJson, startCli, type CliRun } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { filesUnder } from '../helpers/files-under.js';

const missing = redisMissing();
const skip = missing ? `the queue tests skip: ${missing}` : false;
if (missing) console.log(`# ${skip}`);
/** The tests that configure their Redis (passwords, ACL users) run only on their own redis-server. */
const ownRedis = skip || redisNotOwned() || false;
const world = tempWorld('queue-security');
const servers: RedisServer[] = [];
after(async () => Promise.all(servers.map((server) => server.stop())));
let homes = 0;
const home = () => world.path(`home-${++homes}`);

async function redisFor(config: string[] = []): Promise<RedisServer> {
  const server = await startRedis(config);
  servers.push(server);
  return server;
}

/** A CSV whose `token` values are found nowhere else: a scan of Redis for them finds the input if it is there. */
function tokenCsv(path: string, rows: number, seed: number): string[] {
  const tokens: string[] = [];
  const lines = ['id,token,amount'];
  for (let i = 0; i < rows; i++) {
    const token = `zq${seed}t${(i * 7919 + seed).toString(36)}k`;
    tokens.push(token);
    lines.push(`${i},${token},${(i % 997) * 3 + seed}.25`);
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return tokens;
}

const input = world.path('data.csv');
const tokens = tokenCsv(input, 60_000, 1);
const CHUNK = '64KiB';
const analyze = (url: string, file = input) => ['analyze', file, '--budget', '0', '--queue', url, '--chunk-size', CHUNK];

let localAnswer: unknown;
/** The same call without --queue: what every queued run must answer. */
async function local(): Promise<unknown> {
  if (localAnswer) return localAnswer;
  const { envelope } = await runJson(['analyze', input, '--budget', '0', '--chunk-size', CHUNK], {
    env: { STINT_HOME: home() },
  });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  return (localAnswer = envelope.data);
}

/** Redis holds no chunk job and no live key (a killed coordinator's are swept once its live key expired). */
async function queueClean(url: string, what: string): Promise<void> {
  let left: Awaited<ReturnType<typeof queueLeft>> | undefined;
  try {
    await until(async () => {
      left = await queueLeft(url);
      return left.jobs.length === 0 && left.live.length === 0;
    }, `${what}: Redis still holds chunk jobs or live keys`);
  } catch (error) {
    // Which jobs, in which of the queue's lists: the first thing to know of a run that left some.
    throw new Error(`${(error as Error).message}: ${JSON.stringify(left)}`);
  }
}

const connectionOf = (url: string) => {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
};

/** A job as anyone with write access to Redis could add it, to the queue the workers of `build` take from. */
async function addJob(url: string, build: string, id: string, data: Record<string, unknown>): Promise<void> {
  const queue = new Queue(`chunks-${build}`, { connection: connectionOf(url), prefix: 'stint' });
  try {
    await queue.add('chunk', data, { jobId: id, attempts: 1 });
  } finally {
    await queue.close();
  }
}

test('a job naming a data: or file: module, or a map the program does not register, runs nothing', { skip }, async () => {
  const redis = await redisFor();
  const [worker] = await startWorkers(redis.url, 1);
  const build = String(worker!.started()!['build']);
  const marker = world.path('evil-ran');
  const evil = `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'ran');\n`
    + 'export const map = () => 0;\n';
  const evilFile = world.path('evil.mjs');
  writeFileSync(evilFile, evil);
  const dataUrl = `data:text/javascript,${encodeURIComponent(evil)}`;
  const fileUrl = pathToFileURL(evilFile).href;
  const task = (mapModule: string) => encodeClone({
    mapModule, path: input, framing: 'lines', nominalStart: 0, nominalEnd: 1_000, fileSize: statSync(input).size,
    speculative: false, maxRecordBytes: 1_000_000, options: {},
  });
  const crafted = {
    // The shape of before: a module URL in the task, no map name or build.
    'old-data': { task: task(dataUrl), path: input, nominalStart: 0 },
    'old-file': { task: task(fileUrl), path: input, nominalStart: 0 },
    // A map named by URL, with the right build.
    'new-data': { task: task(dataUrl), map: dataUrl, build, path: input, nominalStart: 0 },
    'new-file': { task: task(fileUrl), map: fileUrl, build, path: input, nominalStart: 0 },
    // A map the program does not register.
    'new-name': { task: task(dataUrl), map: 'analyze:evil', build, path: input, nominalStart: 0 },
  };
  // What BullMQ tells of each failed job (the workers sweep a failed job of a run that is not live soon after).
  const events = new QueueEvents(`chunks-${build}`, { connection: connectionOf(redis.url), prefix: 'stint' });
  const failed = new Map<string, string>();
  events.on('failed', ({ jobId, failedReason }) => failed.set(jobId, failedReason));
  await events.waitUntilReady();
  try {
    for (const [id, data] of Object.entries(crafted)) await addJob(redis.url, build, `crafted-${id}`, data);
    await until(() => Object.keys(crafted).every((id) => failed.has(`crafted-${id}`)), 'the crafted jobs fail');
    for (const id of Object.keys(crafted)) assert.match(failed.get(`crafted-${id}`)!, /^JOB_REFUSED: /, id);
    // A registered map with the right build: the task's own module URL is not what runs.
    await addJob(redis.url, build, 'crafted-registered', {
      task: task(dataUrl), map: 'analyze:stats', build, path: input, nominalStart: 0,
    });
    await until(() => worker!.of('chunk').some((e) => e['job'] === 'crafted-registered'), 'it ran');
  } finally {
    await events.close();
  }
  assert.equal(existsSync(marker), false, 'no crafted module ran');
  assert.equal(worker!.of('refused').length, Object.keys(crafted).length, JSON.stringify(worker!.of('refused')));
  // The worker goes on with real work.
  const { envelope } = await runJson(analyze(redis.url), { env: { STINT_HOME: home() } });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  assert.deepEqual(envelope.data, await local());
  const end = await worker!.stop();
  assert.equal(end.code, 0, end.stderr);
});

test('with STINT_QUEUE_SECRET, a forged job, an altered job and a forged result are dropped: same answer', { skip }, async () => {
  const redis = await redisFor();
  const secret = { STINT_QUEUE_SECRET: 'a shared secret' };
  const env = { STINT_HOME: home(), ...secret };
  // The coordinator first, with no worker: its chunks wait in the queue, where they can be altered.
  const listed = await runJson(['worker', 'list', '--queue', redis.url], { env });
  const build = (listed.envelope.data as { build: string }).build;
  const call = startCli(analyze(redis.url), { env, killAfterMs: 240_000 });
  const queue = new Queue(`chunks-${build}`, { connection: connectionOf(redis.url), prefix: 'stint' });
  let forgedId = '';
  try {
    await until(async () => (await queue.getWaiting()).length >= 3, 'chunks wait in the queue');
    // A forged result: a worker without the secret answers the first chunk with a reply of its own.
    await forgeOneResult(redis.url, build);
    const [first, second] = await queue.getWaiting();
    assert.ok(first && second, 'two chunks still wait');
    // Altered in Redis: a chunk's job now carries another's task (its signature no longer holds).
    await first!.updateData({ ...first!.data, task: second!.data.task });
    // Forged: a job of the right shape, unsigned, under an id of the live run (a worker sweeps other runs' jobs).
    forgedId = second!.id!.replace(/-c[0-9a-f]{40}$/, `-c${'f'.repeat(40)}`);
    await queue.add('chunk', { ...second!.data, sig: undefined }, { jobId: forgedId, attempts: 1 });
    const [worker] = await startWorkers(redis.url, 1, secret);
    const run = await call.done;
    const envelope = JSON.parse(run.stdout) as { meta: { exit_code: number }; data: unknown; error: unknown };
    assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
    assert.deepEqual(envelope.data, await local());
    await until(() => worker!.of('refused').length >= 2,
      `the altered and the forged job are refused (the worker said ${JSON.stringify(worker!.events.slice(-4))})`);
    const refused = worker!.of('refused').map((e) => String(e['why']));
    assert.ok(refused.every((why) => /signature does not verify/.test(why)), refused.join('\n'));
    await worker!.stop();
    await queue.remove(forgedId).catch(() => undefined);
  } finally {
    await queue.close();
  }
  await queueClean(redis.url, 'a run with forgeries');
});

/** Takes one chunk job and completes it with a made-up reply (no signature), as someone with Redis access could. */
async function forgeOneResult(url: string, build: string): Promise<void> {
  let forged: (() => void) | undefined;
  const once = new Promise<void>((resolve) => (forged = resolve));
  const forger = new BullWorker(`chunks-${build}`, async (job) => {
    const reply = encodeClone({ kind: 'mapped', start: 0, end: 1, newlines: 1, partial: { forged: true } });
    await job.updateData({ ...job.data, reply, worker: 'forger' });
    forged!();
    return { worker: 'forger' };
  }, { connection: connectionOf(url), prefix: 'stint', concurrency: 1, autorun: true });
  await once;
  await forger.close();
}

test('after runs that end every way (paused too), Redis holds no value of the input and little memory', { skip }, async () => {
  const redis = await redisFor();
  const hold = world.path('hold');
  const [worker] = await startWorkers(redis.url, 1, { STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: '200000' });
  // Done: an analysis, and an import (whose chunk results are decoded rows).
  const done = await runJson(analyze(redis.url), { env: { STINT_HOME: home() } });
  assert.equal(done.envelope.meta.exit_code, 0, JSON.stringify(done.envelope.error));
  const table = world.path('table.db');
  const imported = await runJson(['import', input, '--into', table, '--budget', '0', '--queue', redis.url,
    '--chunk-size', CHUNK], { env: { STINT_HOME: home() } });
  assert.equal(imported.envelope.meta.exit_code, 0, JSON.stringify(imported.envelope.error));
  // Failed: a file whose later part holds an unterminated quote.
  const broken = world.path('broken.csv');
  writeFileSync(broken, readFileSync(input, 'utf8') + '999999,"zqbroken never closed,1\n' + 'x,y,z\n'.repeat(10));
  const failed = await runJson(analyze(redis.url, broken), { env: { STINT_HOME: home() } });
  assert.notEqual(failed.envelope.meta.exit_code, 0);
  assert.notEqual(failed.envelope.meta.exit_code, 14);
  // Cancelled (SIGINT), killed (SIGKILL) and paused (an import at its budget) while the worker holds a chunk.
  // A call stops without waiting for the held chunk (queue-stop.test.ts): the hold is released once the signal
  // is sent or the budget has passed, and the held chunk then ends after its run did.
  const importInto = (name: string, budget: string) => ['import', input, '--into', world.path(name), '--budget',
    budget, '--queue', redis.url, '--chunk-size', CHUNK];
  const cancelled = (run: CliRun) => assert.equal(envelopeOf(run).error?.code, 'CANCELLED', run.stdout);
  const killed = (run: CliRun) => assert.equal(run.signal, 'SIGKILL');
  const paused = (run: CliRun) => assert.equal(envelopeOf(run).data?.['state'], 'paused', run.stdout);
  const ways = [
    { args: analyze(redis.url), signal: 'SIGINT', budgetMs: 0, check: cancelled },
    { args: analyze(redis.url), signal: 'SIGKILL', budgetMs: 0, check: killed },
    { args: importInto('paused-budget.db', '3s'), signal: undefined, budgetMs: 3_000, check: paused },
  ] as const;
  // A worker that ends here fails the test at once with its last words, not after the file's timeout.
  let workerEnd: CliRun | undefined;
  void worker!.done.then((end) => (workerEnd = end));
  const workerGone = () => workerEnd && `the worker ended (${workerEnd.code ?? workerEnd.signal}): `
    + workerEnd.stderr.slice(-2_000);
  for (const { args, signal, budgetMs, check } of ways) {
    writeFileSync(hold, '');
    const seen = worker!.events.length;
    // Taken while the hold file exists: held until it goes.
    const held = () => worker!.events.slice(seen).some((e) => e.event === 'take' && Number(e['start']) >= 200_000);
    const { call, began } = await untilHeld([...args], held, paused, workerGone);
    // The budget's run is not signalled: its budget passes.
    if (signal) call.kill(signal);
    await until(() => Date.now() - began > budgetMs + 500, 'the budget passed');
    const chunks = worker!.of('chunk').length;
    rmHold(hold);
    check(await call.done);
    // The held chunk ends once the hold is gone (its run ended: its worker removes it).
    await until(() => worker!.of('chunk').length > chunks, 'the held chunk ends');
    // A killed coordinator's queued chunks stay until its live key expires, and the worker takes them meanwhile.
    // The next way's hold must not catch one: held in the worker's only slot, the next call would wait behind it.
    await queueClean(redis.url, `the run ended by ${signal ?? 'its budget'}`);
  }
  const contents = await scanRedis(redis.url);
  const found = tokens.filter((_, i) => i % 97 === 0).filter((token) => contents.text.includes(token));
  assert.deepEqual(found, [], `input values left in Redis keys ${contents.keys.join(', ')}`);
  assert.ok(!contents.text.includes('zqbroken'), 'the failed run\'s rows are not in Redis');
  // Bounds: an empty Redis uses about 1 MB; the event streams are capped at about 1,000 short events each.
  assert.ok(contents.usedMemory < 8 * 1024 * 1024, `used_memory ${contents.usedMemory}`);
  assert.ok(contents.longestStream <= 2_000, `longest stream ${contents.longestStream}`);
  // The scan itself finds a value where one is (encoded as the jobs carry it).
  assert.ok(searchable(`{"task":"${encodeClone({ row: tokens[0] })}"}`).includes(tokens[0]!));
  await worker!.stop();
});

/**
 * Starts `args` until a chunk is held while the call runs. A budgeted call can pause before the worker takes the
 * held chunk (a busy machine): it is then continued with its idempotency key, each time further on.
 */
async function untilHeld(
  args: string[], held: () => boolean, paused: (run: CliRun) => void, workerGone: () => string | undefined,
) {
  const env = { STINT_HOME: home() };
  for (;;) {
    const began = Date.now();
    const call = startCli(args, { env, killAfterMs: 240_000 });
    let ended = false;
    void call.done.then(() => (ended = true));
    await until(() => held() || ended || workerGone() !== undefined, 'a held chunk or the call\'s end');
    if (held()) return { call, began };
    const gone = workerGone();
    if (gone !== undefined) {
      call.kill('SIGKILL');
      assert.fail(gone);
    }
    const run = await call.done;
    paused(run);
    const key = /--idempotency-key (\S+)/.exec(String(envelopeOf(run).data?.['continue_command']))?.[1];
    assert.ok(key, run.stdout);
    // The key is the call's own: each continuation carries the same one.
    if (!args.includes('--idempotency-key')) args = [...args, '--idempotency-key', key];
  }
}

function rmHold(hold: string): void {
  if (existsSync(hold)) spawnSync('rm', ['-f', hold]);
}

/** Why a worker cannot be given a different file under the same path here (unshare needs root). */
function noMountNamespace(): string | undefined {
  const tried = spawnSync('unshare', ['--mount', 'true']);
  return tried.status === 0 ? undefined : 'unshare --mount is not available here (it needs root)';
}

test('a worker that reads other bytes under the same path, size and mtime is left out, by name', {
  skip: skip || noMountNamespace() || false,
}, async () => {
  const redis = await redisFor();
  // The same size and mtime, other values in the second half (a regenerated file, another machine's copy).
  const other = world.path('other.csv');
  const bytes = readFileSync(input);
  for (let at = bytes.length >> 1; at < bytes.length; at++) if (bytes[at] === 0x35) bytes[at] = 0x36;
  writeFileSync(other, bytes);
  spawnSync('touch', ['-r', input, other]);
  assert.equal(statSync(other).mtimeMs, statSync(input).mtimeMs);
  const prefix = ['unshare', '--mount', 'sh', '-c', `mount --bind ${other} ${input} && exec "$0" "$@"`];
  const [blind] = await startWorkers(redis.url, 1, {}, { prefix });
  const [good] = await startWorkers(redis.url, 1);
  const { envelope } = await runJson(analyze(redis.url), { env: { STINT_HOME: home() } });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  assert.deepEqual(envelope.data, await local());
  const blindId = String(blind!.started()!['id']);
  const warning = envelope.warnings.find((w) => w.code === 'WORKER_LEFT_OUT');
  assert.equal(warning?.context?.['worker'], blindId, JSON.stringify(envelope.warnings));
  assert.match(warning!.message, new RegExp(blindId));
  // Alone, the worker that reads other bytes cannot do the run: INPUT_NOT_SHARED (4), naming it.
  await good!.stop();
  const alone = await runJson(analyze(redis.url), { env: { STINT_HOME: home() } });
  assert.equal(alone.envelope.meta.exit_code, 4, JSON.stringify(alone.envelope));
  assert.equal(alone.envelope.error?.code, 'INPUT_NOT_SHARED');
  assert.match(alone.envelope.error!.message, new RegExp(blindId));
  await blind!.stop();
  await queueClean(redis.url, 'runs with a left-out worker');
});

test('two namespaces on one Redis, with workers of each: no chunk crosses over', { skip }, async () => {
  const redis = await redisFor();
  const teamB = world.path('team-b.csv');
  tokenCsv(teamB, 20_000, 2);
  const [a] = await startWorkers(redis.url, 1, { STINT_QUEUE_NAMESPACE: 'team-a' });
  const [b] = await startWorkers(redis.url, 1, { STINT_QUEUE_NAMESPACE: 'team-b' });
  const [runA, runB] = await Promise.all([
    runJson(analyze(redis.url), { env: { STINT_HOME: home(), STINT_QUEUE_NAMESPACE: 'team-a' } }),
    runJson(analyze(redis.url, teamB), { env: { STINT_HOME: home(), STINT_QUEUE_NAMESPACE: 'team-b' } }),
  ]);
  assert.equal(runA.envelope.meta.exit_code, 0, JSON.stringify(runA.envelope.error));
  assert.equal(runB.envelope.meta.exit_code, 0, JSON.stringify(runB.envelope.error));
  assert.deepEqual(runA.envelope.data, await local());
  const paths = (worker: WorkerProcess) => new Set(worker.of('chunk').map((e) => e['path']));
  assert.deepEqual([...paths(a!)], [input]);
  assert.deepEqual([...paths(b!)], [teamB]);
  const keys = (await scanRedis(redis.url)).keys;
  assert.ok(keys.some((key) => key.startsWith('team-a:')) && keys.some((key) => key.startsWith('team-b:')));
  assert.ok(!keys.some((key) => key.startsWith('stint:')), keys.join(', '));
  await Promise.all([a!.stop(), b!.stop()]);
});

let otherProgram: string | undefined;
/** stint's build copied elsewhere with one map module changed: a worker of another build of the same program. */
const otherBuild = (): string => (otherProgram ??= copyOtherBuild());

function copyOtherBuild(): string {
  const root = world.path('other-build');
  cpSync(join(REPO_ROOT, 'build', 'src'), join(root, 'build', 'src'), { recursive: true });
  cpSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
  const map = join(root, 'build', 'src', 'commands', 'analyze', 'map', 'csv-stats-map.js');
  writeFileSync(map, readFileSync(map, 'utf8') + '\n// another build\n');
  return join(root, 'build', 'src', 'bin', 'stint.js');
}

test('worker list shows each live worker; a worker of another build takes none of the chunks', { skip }, async () => {
  const redis = await redisFor();
  const [stranger] = await startWorkers(redis.url, 1, {}, { program: otherBuild() });
  const call = startCli(analyze(redis.url), { env: { STINT_HOME: home() }, killAfterMs: 240_000 });
  const [own] = await startWorkers(redis.url, 1);
  const listed = await runJson(['worker', 'list', '--queue', redis.url], { env: { STINT_HOME: home() } });
  assert.equal(listed.envelope.meta.exit_code, 0, JSON.stringify(listed.envelope.error));
  const data = listed.envelope.data as { build: string; workers: { id: string; build: string; concurrency: number }[] };
  const ids = data.workers.map((w) => w.id).sort();
  assert.deepEqual(ids, [String(own!.started()!['id']), String(stranger!.started()!['id'])].sort());
  assert.equal(data.workers.find((w) => w.id === own!.started()!['id'])?.build, data.build);
  assert.notEqual(data.workers.find((w) => w.id === stranger!.started()!['id'])?.build, data.build);
  assert.ok(data.workers.every((w) => w.concurrency === 1));
  const run = await call.done;
  const envelope = JSON.parse(run.stdout) as { meta: { exit_code: number }; data: unknown; error: unknown };
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  assert.deepEqual(envelope.data, await local());
  assert.equal(stranger!.of('take').length, 0, 'the worker of another build took no chunk');
  assert.ok(own!.of('chunk').length > 0);
  await Promise.all([own!.stop(), stranger!.stop()]);
  // A worker gone is gone from the list.
  const after = await runJson(['worker', 'list', '--queue', redis.url], { env: { STINT_HOME: home() } });
  assert.deepEqual((after.envelope.data as { workers: unknown[] }).workers, []);
});

test('no live worker of the build: a warning, then a retryable failure after a bound', { skip }, async () => {
  const redis = await redisFor();
  // Only a worker of another build: it takes none of the chunks.
  const [stranger] = await startWorkers(redis.url, 1, {}, { program: otherBuild() });
  const env = { STINT_HOME: home(), STINT_QUEUE_NO_WORKER_MS: '4000' };
  const alone = await runJson(analyze(redis.url), { env });
  assert.equal(alone.envelope.meta.exit_code, 1, JSON.stringify(alone.envelope));
  assert.equal(alone.envelope.error?.code, 'WORKER_FAILED');
  assert.equal(alone.envelope.error?.retryable, true);
  const said = alone.envelope.error!.message;
  assert.match(said, /no live `stint worker` of this build \(.+\) is on the queue \(1 of another build/);
  assert.match(said, /after 4 s: start one/);
  const warning = alone.envelope.warnings.find((w) => w.code === 'NO_LIVE_WORKER');
  assert.match(warning?.message ?? JSON.stringify(alone.envelope.warnings), /the chunks wait for one$/);
  assert.equal(stranger!.of('take').length, 0);
  // A worker of the build started: the identical call continues and answers as the local run.
  const [own] = await startWorkers(redis.url, 1);
  const again = await runJson(analyze(redis.url), { env });
  assert.equal(again.envelope.meta.exit_code, 0, JSON.stringify(again.envelope.error));
  assert.deepEqual(again.envelope.data, await local());
  assert.deepEqual(again.envelope.warnings.filter((w) => w.code === 'NO_LIVE_WORKER'), []);
  // Out of range: refused before anything runs.
  const bad = await runJson(analyze(redis.url), { env: { ...env, STINT_QUEUE_NO_WORKER_MS: '0' } });
  assert.equal(bad.envelope.error?.code, 'ARG_ERROR');
  assert.match(bad.envelope.error!.message, /STINT_QUEUE_NO_WORKER_MS="0" is not a whole number/);
  await Promise.all([own!.stop(), stranger!.stop()]);
  await queueClean(redis.url, 'a call that gave up');
});

test('refused credentials answer AUTH_REQUIRED (8), a user without INFO PERMISSION_DENIED (7); no password shown or kept', {
  skip: ownRedis,
}, async () => {
  const password = 'pw-Zq9-never-shown';
  const rights = '~stint:* resetchannels -@all +@read +@write +@keyspace +@scripting +@connection +@blocking'
    + ' +@transaction +client|setname +client|getname';
  const redis = await redisFor([
    '--requirepass', password,
    '--user', ...`stint on >${password} ${rights} +info`.split(' '),
    '--user', ...`noinfo on >${password} ${rights}`.split(' '),
  ]);
  const state = home();
  const address = redis.url.replace('redis://', '');
  const calls = [
    { url: redis.url, env: {} },
    { url: `redis://:wrong-${password}@${address}`, env: {} },
    { url: `redis://stint:${password}x@${address}`, env: {} },
    { url: `redis://stint@${address}`, env: { STINT_QUEUE_PASSWORD: `${password}x` } },
  ];
  const said: string[] = [];
  for (const { url, env } of calls) {
    const { run, envelope } = await runJson(analyze(url), { env: { STINT_HOME: state, ...env } });
    said.push(run.stdout, run.stderr);
    assert.equal(envelope.meta.exit_code, 8, `${url}: ${JSON.stringify(envelope.error)}`);
    assert.equal(envelope.error?.code, 'AUTH_REQUIRED');
    assert.equal(envelope.error?.retryable, false);
    const worker = await runJson(['worker', '--queue', url], { env: { STINT_HOME: state, ...env } });
    said.push(worker.run.stdout, worker.run.stderr);
    assert.equal(worker.run.code, 8, worker.run.stdout);
  }
  // A user without INFO: the worker ends at once with its code, and so does a call.
  const noInfo = { STINT_QUEUE_PASSWORD: password, STINT_HOME: state };
  const worker = await runJson(['worker', '--queue', `redis://noinfo@${address}`], { env: noInfo, killAfterMs: 60_000 });
  assert.equal(worker.run.code, 7, worker.run.stdout);
  assert.equal(worker.envelope.error?.code, 'PERMISSION_DENIED');
  // The restricted user docs/many-machines.md lists runs the queue, and the password given in the URL is kept nowhere.
  const hold = world.path('hold-password');
  const env = { STINT_QUEUE_PASSWORD: password, STINT_TEST_HOLD_FILE: hold, STINT_TEST_HOLD_FROM: '200000' };
  const [ok] = await startWorkers(`redis://stint@${address}`, 1, env);
  const good = await runJson(analyze(`redis://stint:${password}@${address}`), { env: { STINT_HOME: state } });
  said.push(good.run.stdout, good.run.stderr);
  assert.equal(good.envelope.meta.exit_code, 0, JSON.stringify(good.envelope.error));
  assert.deepEqual(good.envelope.data, await local());
  // Paused by its budget while the worker holds a chunk, the call goes on in the background: with its password.
  writeFileSync(hold, '');
  const background = home();
  const pausedCall = ['analyze', input, '--budget', '1s', '--queue', `redis://stint:${password}@${address}`,
    '--chunk-size', CHUNK];
  const paused = await runJson(pausedCall, { env: { STINT_HOME: background } });
  said.push(paused.run.stdout, paused.run.stderr);
  assert.equal(paused.envelope.meta.exit_code, 14, JSON.stringify(paused.envelope.error));
  rmSync(hold);
  const id = (paused.envelope.data as { job_id: string }).job_id;
  const waited = await runJson(['job', 'wait', id, '--budget', '0'], { env: { STINT_HOME: background } });
  said.push(waited.run.stdout, waited.run.stderr);
  assert.equal(waited.envelope.meta.exit_code, 0, JSON.stringify(waited.envelope.error));
  assert.deepEqual(waited.envelope.data, await local(), 'the background run answers what the call would have');
  const listed = await runCli(['job', 'list', '--format', 'text'], { env: { STINT_HOME: state } });
  said.push(listed.stdout);
  const end = await ok!.stop();
  said.push(end.stdout, end.stderr);
  assert.ok(!said.some((text) => text.includes(password)), 'the password appears in no output');
  for (const file of [...filesUnder(state), ...filesUnder(background)]) {
    assert.ok(!readFileSync(file).includes(password), `the password is not kept in ${file}`);
  }
});

test('SIGTERM in a worker\'s first second ends it: nothing was taken, nothing is lost', { skip }, async () => {
  const redis = await redisFor();
  // At once: before it started it holds nothing, and ends either drained (0) or by the signal (143).
  const early = new WorkerProcess(redis.url);
  early.child.kill('SIGTERM');
  const first = await early.done;
  assert.ok(first.code === 0 || first.code === 143 || first.signal === 'SIGTERM', `${first.code} ${first.signal}`);
  // Just started (connected, registered, taking): it drains and answers 0.
  const fresh = new WorkerProcess(redis.url);
  await until(() => fresh.started() !== undefined, 'the worker starts');
  fresh.child.kill('SIGTERM');
  const second = await fresh.done;
  assert.equal(second.code, 0, second.stderr);
  assert.equal((JSON.parse(second.stdout) as { data: { drained: boolean } }).data.drained, true);
  const listed = await runJson(['worker', 'list', '--queue', redis.url], { env: { STINT_HOME: home() } });
  assert.deepEqual((listed.envelope.data as { workers: unknown[] }).workers, []);
});
