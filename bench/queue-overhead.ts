// The queue's overhead and a dead worker's cost (issue 14), measured side by side on one machine:
// `stint analyze` with 2 worker threads here against the same call through a BullMQ queue on a local
// redis-server with 2 `stint worker` processes (one chunk at a time each), ABBA rounds, medians; then the time
// from a worker's kill -9 (holding a chunk) to that chunk being taken again, at two lock durations.
// Run: npm run build && node build/bench/queue-overhead.js   (BENCH_QUEUE_MIB, default 256)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { writeBigCsv } from '../test/helpers/big-csv.js';
import { STINT_BIN } from '../test/helpers/paths.js';
import { startRedis, type RedisServer } from '../test/helpers/redis-server.js';
import { mbps, median, timeCommand } from './measure.js';

const MIB = Number(process.env['BENCH_QUEUE_MIB'] ?? 256);
const ROUNDS = 3;
const dir = join(tmpdir(), 'stint-bench');
mkdirSync(dir, { recursive: true });
const file = join(dir, `queue-${MIB}m.csv`);
const bytes = existsSync(file) ? undefined : writeBigCsv(file, MIB * 1024 * 1024, 3);
const size = bytes ?? (await import('node:fs')).statSync(file).size;
const home = join(dir, 'queue-home');

type Event = { event: string; job?: string; start?: number; ms?: number };
interface Worker {
  readonly child: ChildProcess;
  readonly events: Event[];
}

function worker(url: string, lock: string, env: Record<string, string> = {}): Worker {
  const args = [STINT_BIN, 'worker', '--queue', url, '--concurrency', '1', '--lock-duration', lock, '--format', 'json'];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const events: Event[] = [];
  let partial = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (line.startsWith('{')) events.push(JSON.parse(line) as Event);
  });
  return { child, events };
}

async function until(fact: () => boolean): Promise<number> {
  while (!fact()) await delay(2);
  return performance.now();
}

async function stop(workers: readonly Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => new Promise((resolve) => {
    w.child.once('close', resolve);
    w.child.kill('SIGTERM');
  })));
}

async function analyze(extra: readonly string[]): Promise<number> {
  rmSync(home, { recursive: true, force: true });
  const run = await timeCommand(process.execPath, [STINT_BIN, 'analyze', file, '--budget', '0', ...extra], {
    STINT_HOME: home,
  });
  if (run.code !== 0) throw new Error(`analyze failed: ${run.stdout}${run.stderr}`);
  return run.ms;
}

async function overhead(redis: RedisServer): Promise<void> {
  const workers = [worker(redis.url, '30s'), worker(redis.url, '30s')];
  await until(() => workers.every((w) => w.events.some((e) => e.event === 'started')));
  const local: number[] = [];
  const queued: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['local', 'queue'] : ['queue', 'local'];
    for (const which of order) {
      if (which === 'local') local.push(await analyze(['--workers', '2']));
      else queued.push(await analyze(['--queue', redis.url]));
    }
  }
  const chunks = workers.reduce((n, w) => n + w.events.filter((e) => e.event === 'chunk').length, 0) / ROUNDS;
  const chunkMs = median(workers.flatMap((w) => w.events.filter((e) => e.event === 'chunk').map((e) => e.ms!)));
  // Two chunk sizes: the difference is the cost of the extra chunks alone, without start-up and headers.
  const [big, small] = [await coordinatorCpu(redis, '1MiB'), await coordinatorCpu(redis, '256KiB')];
  const perChunk = (small - big) / (chunks * 3);
  await stop(workers);
  const [l, q] = [median(local), median(queued)];
  console.log(`file ${(size / 1e6).toFixed(0)} MB, ${chunks} chunks of 1 MiB a run, ${ROUNDS} ABBA rounds, medians`);
  console.log(`in-process pool, 2 threads:      ${l.toFixed(0)} ms  ${mbps(size, l).toFixed(0)} MB/s`);
  console.log(`queue, 2 local workers:          ${q.toFixed(0)} ms  ${mbps(size, q).toFixed(0)} MB/s`);
  console.log(`queue / pool time:               ${(q / l).toFixed(2)}x; `
    + `extra per chunk: ${((q - l) / chunks).toFixed(2)} ms of wall time`);
  console.log(`a worker's 1 MiB chunk (median, taken to done): ${chunkMs.toFixed(1)} ms`);
  console.log(`the coordinator's CPU a run: ${big.toFixed(2)} s in 1 MiB chunks, ${small.toFixed(2)} s in 256 KiB`
    + ` chunks: ${(perChunk * 1000).toFixed(2)} ms per extra chunk`);
}

/** The coordinator's CPU seconds (user + sys, GNU time) for one queued run. */
async function coordinatorCpu(redis: RedisServer, chunkSize: string): Promise<number> {
  rmSync(home, { recursive: true, force: true });
  const args = ['-f', 'STINT_BENCH_CPU=%U %S', process.execPath, STINT_BIN, 'analyze', file, '--budget', '0',
    '--queue', redis.url, '--chunk-size', chunkSize];
  const run = await timeCommand('/usr/bin/time', args, { STINT_HOME: home });
  const [user, sys] = /STINT_BENCH_CPU=([\d.]+) ([\d.]+)/.exec(run.stderr)!.slice(1).map(Number);
  return user! + sys!;
}

/** kill -9 of a worker holding a chunk, then the time until a live worker takes that chunk again. */
async function deathToRerun(redis: RedisServer, lock: string): Promise<number> {
  const hold = join(dir, 'queue-hold');
  writeFileSync(hold, '');
  const doomed = worker(redis.url, lock, { STINT_TEST_HOLD_FILE: hold });
  await until(() => doomed.events.some((e) => e.event === 'started'));
  const live = worker(redis.url, lock);
  await until(() => live.events.some((e) => e.event === 'started'));
  rmSync(home, { recursive: true, force: true });
  const call = timeCommand(process.execPath, [STINT_BIN, 'analyze', file, '--budget', '0', '--queue', redis.url], {
    STINT_HOME: home,
  });
  await until(() => doomed.events.some((e) => e.event === 'take'));
  const held = doomed.events.find((e) => e.event === 'take')!.job;
  doomed.child.kill('SIGKILL');
  const killed = performance.now();
  const taken = await until(() => live.events.some((e) => e.event === 'take' && e.job === held));
  await call;
  rmSync(hold, { force: true });
  await stop([live]);
  return taken - killed;
}

const redis = await startRedis();
try {
  await overhead(redis);
  for (const lock of process.env['BENCH_QUEUE_DEATH'] === '0' ? [] : ['2s', '30s']) {
    const ms = await deathToRerun(redis, lock);
    console.log(`worker kill -9 to its chunk taken again, --lock-duration ${lock}: ${(ms / 1000).toFixed(1)} s`);
  }
} finally {
  await redis.stop();
}
