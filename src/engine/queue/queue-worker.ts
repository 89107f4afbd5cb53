import { existsSync, statSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import { ErrorCode } from '../../contract/error-code.js';
import { openChunkPool } from '../chunk-pool.js';
import type { ChunkReply, ChunkTask } from '../worker-protocol.js';
import { decodeClone, encodeClone } from './chunk-codec.js';
import type { ChunkJobData, ChunkJobResult, FileSeen } from './chunk-job.js';
import { startLeftoverSweep } from './leftover-sweep.js';
import { CHUNK_QUEUE, checkReachable, QUEUE_PREFIX, redisOptions } from './queue-connection.js';

export interface QueueWorkerSpec {
  readonly url: string;
  /** Chunks at once: one thread each. */
  readonly concurrency: number;
  /**
   * How long a chunk's lock lasts without renewal: a worker that died is noticed after about this long (and
   * the stalled check runs at this interval), so its chunk runs again elsewhere. BullMQ's default is 30 s.
   */
  readonly lockMs: number;
  /**
   * A chunk still running after this long hangs: the worker stops (its chunks are not renewed, so they run
   * again elsewhere once their locks expire) and `hung()` says why. Undefined: no limit.
   */
  readonly chunkTimeoutMs?: number;
  /** Each chunk as it is taken (before it is read), by its job id, file and planned start. */
  onTake(job: string, path: string, nominalStart: number): void;
  /** Each chunk done or failed, as it ends. */
  onChunk(event: ChunkEvent): void;
}

/** One chunk a worker ran: where, how it ended, how long it took. */
export interface ChunkEvent {
  readonly job: string;
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly outcome: ChunkReply<unknown>['kind'];
  readonly code?: string;
  readonly ms: number;
}

/** A running worker: how many chunks it ran, and `drain` (finish the chunks in hand, take no more). */
export interface QueueWorker {
  chunks(): number;
  drain(): Promise<void>;
  /** Why the worker stopped on its own (a chunk hung past the timeout), or undefined. */
  hung(): string | undefined;
  /** Resolves once the worker stopped (drained, or closed for good). */
  readonly closed: Promise<void>;
}

/**
 * Tests only: a chunk at or past STINT_TEST_HOLD_FROM (an offset) waits while the file STINT_TEST_HOLD_FILE
 * exists, so a test can kill a worker, the coordinator or Redis while chunks are surely in hand.
 */
async function testHold(env: NodeJS.ProcessEnv, task: ChunkTask): Promise<void> {
  const file = env['STINT_TEST_HOLD_FILE'];
  if (!file || task.nominalStart < Number(env['STINT_TEST_HOLD_FROM'] ?? 0)) return;
  while (existsSync(file)) await delay(50);
}

/** The work's result, or never when it runs past `ms` (then `late` runs once). */
function withinTimeout<T>(work: Promise<T>, ms: number | undefined, late: () => void): Promise<T> {
  if (ms === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>(() => (timer = setTimeout(late, ms)));
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** A file this worker cannot read as the coordinator saw it: the chunk's coded failure. */
function notShared(task: ChunkTask, message: string): ChunkReply<never> {
  return {
    kind: 'failed',
    start: task.nominalStart,
    end: task.nominalStart,
    error: { code: ErrorCode.InputNotShared, message, context: { path: task.path, worker: hostname() } },
  };
}

/** The input as the coordinator saw it (path, size, mtime), or why this machine sees another. */
function checkSeen(task: ChunkTask, seen: FileSeen): ChunkReply<never> | undefined {
  let stat;
  try {
    stat = statSync(seen.path);
  } catch (error) {
    return notShared(task, `worker ${hostname()} cannot read ${seen.path}: ${(error as Error).message}`);
  }
  if (stat.size === seen.size && stat.mtimeMs === seen.mtimeMs) return undefined;
  return notShared(task, `worker ${hostname()} sees another ${seen.path}: ${stat.size} bytes, mtime`
    + ` ${new Date(stat.mtimeMs).toISOString()}; the coordinator's has ${seen.size} bytes, mtime`
    + ` ${new Date(seen.mtimeMs).toISOString()}`);
}

/**
 * Takes chunk jobs from the queue at `url` and maps them on its own threads with the same task handler the
 * in-process pool uses: any map module the job names that this machine can import (stint's, or a program's
 * at the same path). Redis must answer at start (QUEUE_UNREACHABLE otherwise).
 */
export async function startQueueWorker(spec: QueueWorkerSpec): Promise<QueueWorker> {
  await checkReachable(spec.url);
  const pool = await openChunkPool(spec.concurrency);
  // Named in each chunk's result: the coordinator counts the distinct workers that took part.
  const self = `${hostname()}:${process.pid}`;
  let done = 0;
  let giveUp: (job: Job<ChunkJobData, ChunkJobResult>, task: ChunkTask) => void = () => undefined;
  const runJob = async (job: Job<ChunkJobData, ChunkJobResult>): Promise<ChunkJobResult> => {
    const began = Date.now();
    const task = decodeClone<ChunkTask>(job.data.task);
    spec.onTake(job.id ?? '', task.path, task.nominalStart);
    // The thread pool checks the inode of a file opened here; the coordinator's may be another machine's.
    const { fileIno: _ino, ...local } = task;
    const mapped = async () => {
      await testHold(process.env, task);
      return (job.data.seen ? checkSeen(task, job.data.seen) : undefined) ?? pool.run<unknown>(local);
    };
    const reply = await withinTimeout(mapped(), spec.chunkTimeoutMs, () => giveUp(job, task));
    done++;
    const code = reply.kind === 'failed' ? { code: reply.error.code } : {};
    const end = reply.kind === 'misaligned' ? reply.start : reply.end;
    spec.onChunk({
      job: job.id ?? '', path: task.path, start: reply.start, end, outcome: reply.kind, ...code, ms: Date.now() - began,
    });
    return { reply: encodeClone(reply), worker: self };
  };
  const worker = new Worker<ChunkJobData, ChunkJobResult>(CHUNK_QUEUE, runJob, {
    connection: redisOptions(spec.url),
    prefix: QUEUE_PREFIX,
    concurrency: spec.concurrency,
    lockDuration: spec.lockMs,
    stalledInterval: spec.lockMs,
    // A chunk whose worker died more than this often fails for good (the coordinator answers WORKER_FAILED).
    maxStalledCount: 3,
    removeOnComplete: { age: 3_600 },
  });
  worker.on('error', () => undefined); // a lost connection: ioredis reconnects, BullMQ resumes
  const sweep = await startLeftoverSweep(spec.url);
  worker.on('completed', (job) => sweep.dropIfEnded(job.id));
  worker.on('failed', (job) => sweep.dropIfEnded(job?.id));
  let closing: Promise<void> | undefined;
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  const stop = async (force: boolean) => {
    await worker.close(force);
    await Promise.all([pool.close(), sweep.close()]);
  };
  const drain = () => (closing ??= stop(false).finally(ended));
  let hung: string | undefined;
  // Forced: the hung chunk is not waited for, and its lock is no longer renewed.
  giveUp = (job, task) => {
    hung ??= `chunk ${job.id} (${task.path} at ${task.nominalStart}) ran past ${spec.chunkTimeoutMs} ms`;
    closing ??= stop(true).finally(ended);
  };
  await worker.waitUntilReady();
  return { chunks: () => done, drain, hung: () => hung, closed };
}
