import { existsSync, statSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { hostname } from 'node:os';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { ErrorCode } from '../../contract/error-code.js';
import { openChunkPool } from '../chunk-pool.js';
import { buildIdentity, mapUrlOf } from '../map-registry.js';
import type { ChunkReply, ChunkTask } from '../worker/worker-protocol.js';
import { rangeDigest } from './chunk-digest.js';
import { decodeClone, encodeClone } from './chunk-codec.js';
import {
  jobSigned, replySigned, runOfJob, type ChunkJobData, type ChunkJobResult, type FileSeen,
} from './chunk-job.js';
import { queueSecret, signed, verifies } from './job-signature.js';
import { leaveOut } from './left-out.js';
import { startLeftoverSweep } from './leftover-sweep.js';
import { isLive } from './run-liveness.js';
import { checkReachable, chunkQueue, failFastClient, queueBase } from './queue-connection.js';
import { newWorkerId, registerWorker } from './worker-registry.js';

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
  /** A job refused (not this program's map or build, or not signed with the secret): it fails, nothing runs. */
  onRefuse(job: string, why: string): void;
  /** This worker cannot read a run's input as its coordinator does: it hands that run's chunks back. */
  onLeftOut(job: string, why: string): void;
  /** The program's version, shown in `worker list`. */
  readonly version: string;
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
  /** Unique per process (worker-registry.ts), named in each chunk's result and in `worker list`. */
  readonly id: string;
  readonly build: string;
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

/** The input as the coordinator saw it (path, size, mtime, the planned range's bytes), or why this worker does not. */
function whyNotShared(task: ChunkTask, seen: FileSeen, self: string): string | undefined {
  let stat;
  try {
    stat = statSync(seen.path);
  } catch (error) {
    return `worker ${self} cannot read ${seen.path}: ${(error as Error).message}`;
  }
  if (stat.size !== seen.size || stat.mtimeMs !== seen.mtimeMs) {
    return `worker ${self} sees another ${seen.path}: ${stat.size} bytes, mtime`
      + ` ${new Date(stat.mtimeMs).toISOString()}; the coordinator's has ${seen.size} bytes, mtime`
      + ` ${new Date(seen.mtimeMs).toISOString()}`;
  }
  const end = Math.min(task.nominalEnd, task.fileSize);
  if (rangeDigest(seen.path, task.nominalStart, end) === seen.digest) return undefined;
  return `worker ${self} reads other bytes in ${seen.path} [${task.nominalStart}, ${end}) than the coordinator`
    + ' (same size and mtime, other content)';
}

/** Why a job is not this worker's to run (signature, build, map), or its task with the registered map module. */
function accepted(job: Job<ChunkJobData, ChunkJobResult>, build: string): { task: ChunkTask } | { refused: string } {
  const data = job.data;
  if (!verifies(queueSecret(), data.sig, jobSigned(job.id ?? '', data))) {
    return { refused: 'its signature does not verify with STINT_QUEUE_SECRET (forged, or altered in Redis)' };
  }
  if (data.build !== build) return { refused: `it is of build ${String(data.build)}, this worker's is ${build}` };
  const url = typeof data.map === 'string' ? mapUrlOf(data.map) : undefined;
  if (!url) return { refused: `its map ${JSON.stringify(data.map)} is not one this program registers` };
  return { task: { ...decodeClone<Omit<ChunkTask, 'mapModule'>>(data.task), mapModule: url } };
}

/** How long a chunk handed back (by a worker left out of its run) waits before a worker takes it again. */
const HAND_BACK_MS = 500;

/**
 * Takes chunk jobs of its program's build from the queue at `url` and maps them on its own threads with the
 * same task handler the in-process pool uses, with the program's registered maps only. Redis must answer at
 * start (AUTH_REQUIRED, PERMISSION_DENIED or QUEUE_UNREACHABLE otherwise); a failed start leaves nothing open.
 */
export async function startQueueWorker(spec: QueueWorkerSpec): Promise<QueueWorker> {
  await checkReachable(spec.url);
  const opened: (() => Promise<unknown>)[] = [];
  try {
    return await startWith(spec, opened);
  } catch (error) {
    await Promise.allSettled(opened.map((close) => close()));
    throw error;
  }
}

async function startWith(spec: QueueWorkerSpec, opened: (() => Promise<unknown>)[]): Promise<QueueWorker> {
  const pool = await openChunkPool(spec.concurrency);
  opened.push(() => pool.close());
  const build = buildIdentity();
  const self = newWorkerId();
  const client = await failFastClient(spec.url);
  opened.push(async () => client.disconnect());
  // Runs this worker is left out of, with why: said again with each chunk handed back, so that a later run
  // under the same key (its coordinator removed the first run's list as it ended) hears it too.
  const excluded = new Map<string, string>();
  let done = 0;
  let giveUp: (job: Job<ChunkJobData, ChunkJobResult>, task: ChunkTask) => void = () => undefined;
  const sweep = await startLeftoverSweep(spec.url);
  opened.push(() => sweep.close());
  /** Left out of the job's run: the chunk goes back to the queue, for a worker that reads the input right. */
  const handBack = async (job: Job<ChunkJobData, ChunkJobResult>, token: string | undefined, run: string) => {
    // Not after its coordinator ended the run (and removed the list): the chunk is swept with the run.
    if (await isLive(client, run)) await leaveOut(client, run, self, excluded.get(run)!);
    // BullMQ's delays are epoch ms shared through Redis: a worker's times are its machine's clock, not a Host's.
    await job.moveToDelayed(Date.now() + HAND_BACK_MS, token);
    // Its run may have ended while this worker held the chunk (then its coordinator could not remove it).
    sweep.dropIfEnded(job.id);
    throw new DelayedError();
  };
  const runJob = async (job: Job<ChunkJobData, ChunkJobResult>, token?: string): Promise<ChunkJobResult> => {
    const began = Date.now();
    const verdict = accepted(job, build);
    if ('refused' in verdict) {
      spec.onRefuse(job.id ?? '', verdict.refused);
      throw new UnrecoverableError(`${ErrorCode.JobRefused}: worker ${self} refused the job: ${verdict.refused}`);
    }
    const task = verdict.task;
    const run = runOfJob(job.id ?? '') ?? '';
    if (excluded.has(run)) return handBack(job, token, run);
    spec.onTake(job.id ?? '', task.path, task.nominalStart);
    // The thread pool checks the inode of a file opened here; the coordinator's may be another machine's.
    const { fileIno: _ino, ...local } = task;
    const mapped = async (): Promise<ChunkReply<unknown> | string> => {
      await testHold(process.env, task);
      const why = job.data.seen ? whyNotShared(task, job.data.seen, self) : undefined;
      return why ?? pool.run<unknown>(local);
    };
    const reply = await withinTimeout(mapped(), spec.chunkTimeoutMs, () => giveUp(job, task));
    if (typeof reply === 'string') {
      excluded.set(run, reply);
      spec.onLeftOut(job.id ?? '', reply);
      return handBack(job, token, run);
    }
    done++;
    const code = reply.kind === 'failed' ? { code: reply.error.code } : {};
    const end = reply.kind === 'misaligned' ? reply.start : reply.end;
    spec.onChunk({
      job: job.id ?? '', path: task.path, start: reply.start, end, outcome: reply.kind, ...code, ms: Date.now() - began,
    });
    const encoded = encodeClone(reply);
    const secret = queueSecret();
    const replySig = secret ? { replySig: signed(secret, replySigned(job.id ?? '', encoded, self)) } : {};
    await job.updateData({ ...job.data, reply: encoded, worker: self, ...replySig });
    return { worker: self };
  };
  const worker = new Worker<ChunkJobData, ChunkJobResult>(chunkQueue(), runJob, {
    ...queueBase(spec.url),
    concurrency: spec.concurrency,
    lockDuration: spec.lockMs,
    stalledInterval: spec.lockMs,
    // A chunk whose worker died more than this often fails for good (the coordinator answers WORKER_FAILED).
    maxStalledCount: 3,
    removeOnComplete: { age: 3_600 },
  });
  opened.push(() => worker.close(true));
  worker.on('error', () => undefined); // a lost connection: ioredis reconnects, BullMQ resumes
  worker.on('completed', (job) => sweep.dropIfEnded(job.id));
  worker.on('failed', (job) => sweep.dropIfEnded(job?.id));
  const entry = {
    id: self, build, version: spec.version, host: hostname(), pid: process.pid, concurrency: spec.concurrency,
    startedAt: new Date().toISOString(),
  };
  const registration = await registerWorker(spec.url, entry, () => done);
  opened.push(() => registration.end());
  let closing: Promise<void> | undefined;
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  const stop = async (force: boolean) => {
    await worker.close(force);
    await Promise.all([pool.close(), sweep.close(), registration.end()]);
    client.disconnect();
  };
  const drain = () => (closing ??= stop(false).finally(ended));
  let hung: string | undefined;
  // Forced: the hung chunk is not waited for, and its lock is no longer renewed.
  giveUp = (job, task) => {
    hung ??= `chunk ${job.id} (${task.path} at ${task.nominalStart}) ran past ${spec.chunkTimeoutMs} ms`;
    closing ??= stop(true).finally(ended);
  };
  await worker.waitUntilReady();
  return { id: self, build, chunks: () => done, drain, hung: () => hung, closed };
}
