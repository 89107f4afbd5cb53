// The queue's cost against the in-process pool, and what one coordinator can feed, on one machine: `stint analyze`
// with 2 worker threads here against the same call through a BullMQ queue on a local redis-server with 2
// `stint worker` processes (one chunk at a time each), at 1, 4 and 16 MiB chunks, alternating rounds, medians,
// CPU beside wall time, the load average of each round. CPU through the queue is everything the call costs:
// the coordinator's process (GNU time: the rusage it ends with, as process.cpuUsage would read it), both
// workers' (from /proc, before and after) and Redis's (INFO cpu). Then, optionally, the time from a worker's
// kill -9 (holding a chunk) to that chunk being taken again, at two lock durations.
// Run: npm run build && node build/bench/queue-overhead.js
//   BENCH_QUEUE_MIB (default 256), BENCH_QUEUE_ROUNDS (3), BENCH_QUEUE_SIZES (MiB, default 1,4,16),
//   BENCH_QUEUE_DEATH=0 skips the kill runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { writeBigCsv } from '../test/helpers/big-csv.js';
import { STINT_BIN } from '../test/helpers/paths.js';
import { startRedis, type RedisServer } from '../test/helpers/redis-server.js';
import { mbps, median, timeCommand } from './measure.js';

const MIB = Number(process.env['BENCH_QUEUE_MIB'] ?? 256);
const ROUNDS = Number(process.env['BENCH_QUEUE_ROUNDS'] ?? 3);
const SIZES = (process.env['BENCH_QUEUE_SIZES'] ?? '1,4,16').split(',').map(Number);
const dir = join(tmpdir(), 'stint-bench');
mkdirSync(dir, { recursive: true });
const file = join(dir, `queue-${MIB}m.csv`);
if (!existsSync(file)) writeBigCsv(file, MIB * 1024 * 1024, 3);
const size = statSync(file).size;
const tiny = join(dir, 'queue-tiny.csv');
if (!existsSync(tiny)) writeBigCsv(tiny, 64 * 1024, 3);
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

/** A process's CPU seconds so far (user + system, all its threads), from /proc. */
function procCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function redisCpu(client: Redis): Promise<number> {
  const info = await client.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)![1]);
  return field('used_cpu_user') + field('used_cpu_sys');
}

interface Run {
  readonly ms: number;
  /** The whole call's CPU seconds: the process, and with the queue its workers and Redis. */
  readonly cpu: number;
  /** The coordinator's own CPU seconds (the process that folds). */
  readonly own: number;
  readonly load: number;
}

/** One `analyze` under GNU time; `extra` CPU (workers, Redis) is measured around it. */
async function analyze(path: string, args: readonly string[], extra: () => Promise<number>): Promise<Run> {
  rmSync(home, { recursive: true, force: true });
  const load = loadavg()[0]!;
  const before = await extra();
  const run = await timeCommand('/usr/bin/time', ['-f', 'STINT_BENCH_CPU=%U %S', process.execPath, STINT_BIN,
    'analyze', path, '--budget', '0', ...args], { STINT_HOME: home });
  if (run.code !== 0) throw new Error(`analyze failed: ${run.stdout}${run.stderr}`);
  const [user, sys] = /STINT_BENCH_CPU=([\d.]+) ([\d.]+)/.exec(run.stderr)!.slice(1).map(Number);
  const own = user! + sys!;
  return { ms: run.ms, own, cpu: own + (await extra()) - before, load };
}

interface Figures {
  readonly mib: number;
  readonly local: Run[];
  readonly queued: Run[];
  /** Worker CPU seconds per chunk, from the workers' own /proc figures over the queued runs. */
  readonly workerPerChunk: number;
}

async function atChunkSize(mib: number, url: string, workers: readonly Worker[], client: Redis): Promise<Figures> {
  const chunk = ['--chunk-size', `${mib}MiB`];
  const workersCpu = () => workers.reduce((n, w) => n + procCpu(w.child.pid!), 0);
  const queueSide = async () => workersCpu() + (await redisCpu(client));
  const local: Run[] = [];
  const queued: Run[] = [];
  let workerCpu = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['local', 'queue'] : ['queue', 'local'];
    for (const which of order) {
      if (which === 'local') local.push(await analyze(file, ['--workers', '2', ...chunk], async () => 0));
      else {
        const before = workersCpu();
        queued.push(await analyze(file, ['--queue', url, ...chunk], queueSide));
        workerCpu += workersCpu() - before;
      }
    }
  }
  const chunks = Math.ceil(size / (mib * 1024 * 1024));
  return { mib, local, queued, workerPerChunk: workerCpu / ROUNDS / chunks };
}

function report(f: Figures, startCpu: number): void {
  const chunks = Math.ceil(size / (f.mib * 1024 * 1024));
  const m = (runs: Run[], key: keyof Run) => median(runs.map((r) => r[key]));
  const [lw, qw, lc, qc] = [m(f.local, 'ms'), m(f.queued, 'ms'), m(f.local, 'cpu'), m(f.queued, 'cpu')];
  const own = m(f.queued, 'own');
  const perChunk = (own - startCpu) / chunks;
  const loads = [...f.local, ...f.queued].map((r) => r.load.toFixed(1)).join(' ');
  console.log(`\n${f.mib} MiB chunks: ${chunks} a run, ${ROUNDS} alternating rounds, medians; load average ${loads}`);
  console.log(`  in-process pool, 2 threads: ${lw.toFixed(0)} ms (${mbps(size, lw).toFixed(0)} MB/s), CPU ${lc.toFixed(2)} s`);
  console.log(`  queue, 2 local workers:     ${qw.toFixed(0)} ms (${mbps(size, qw).toFixed(0)} MB/s), CPU ${qc.toFixed(2)} s`);
  console.log(`  queue / pool: wall ${(qw / lw).toFixed(2)}x, CPU ${(qc / lc).toFixed(2)}x`
    + ` (per round, wall: ${f.queued.map((q, i) => (q.ms / f.local[i]!.ms).toFixed(2)).join(' ')})`);
  console.log(`  coordinator CPU: ${own.toFixed(2)} s a run, ${(perChunk * 1000).toFixed(2)} ms per chunk`
    + ` (less its ${startCpu.toFixed(2)} s start and end)`);
  console.log(`  a worker's CPU per chunk: ${(f.workerPerChunk * 1000).toFixed(1)} ms: one coordinator feeds`
    + ` ${(f.workerPerChunk / perChunk).toFixed(1)} worker cores`);
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

async function overhead(redis: RedisServer): Promise<void> {
  const workers = [worker(redis.url, '30s'), worker(redis.url, '30s')];
  await until(() => workers.every((w) => w.events.some((e) => e.event === 'started')));
  const client = new Redis(redis.url);
  try {
    // The coordinator's cost apart from its chunks: a queued run of a one-chunk file.
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) starts.push((await analyze(tiny, ['--queue', redis.url], async () => 0)).own);
    const startCpu = median(starts);
    console.log(`file ${(size / 1e6).toFixed(0)} MB; a queued one-chunk run's coordinator CPU ${startCpu.toFixed(2)} s`);
    for (const mib of SIZES) report(await atChunkSize(mib, redis.url, workers, client), startCpu);
  } finally {
    client.disconnect();
    await stop(workers);
  }
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
