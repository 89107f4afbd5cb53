import { availableParallelism } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { ErrorCode } from '../contract/error-code.js';
import { checkWhole } from '../contract/option-check.js';
import type { ChunkReply, ChunkTask } from './worker/worker-protocol.js';
import { remotePort as openRemotePort } from './worker/remote-reads.js';

/** CommonJS on purpose: piscina require()s it, and require() of an ES module aborts if the pool closes mid-start. */
const WORKER_START = new URL('./worker/worker-start.cjs', import.meta.url).href;

/**
 * How long closing the pool may take before the run goes on without it: a thread that died mid-task can leave
 * piscina's destroy() pending, and the answer must not wait on it (the process ends its threads when it exits).
 */
const CLOSE_GRACE_MS = 2_000;

/** The pool as the fold sees it: run a chunk, get a reply (never a rejection), and close. */
export interface ChunkPool {
  readonly workers: number;
  run<P>(task: ChunkTask): Promise<ChunkReply<P>>;
  close(): Promise<void>;
}

/** Worker threads opened ahead of a processFile call (see openWorkerPool); whoever opened them closes them. */
export interface WorkerPool {
  readonly workers: number;
  close(): Promise<void>;
}

/**
 * Opens the worker threads before processFile needs them, so they boot
 * (~60 ms) while the caller opens its store: pass the promise as `pool`.
 * Default: one thread per core but one, left to a fold heavy on the main thread. Anything but a whole
 * number of at least 1 rejects with ARG_ERROR.
 */
export async function openWorkerPool(workers = writerWorkerCount()): Promise<WorkerPool> {
  checkWhole('openWorkerPool', 'workers', workers, 1);
  return openChunkPool(workers);
}

/** The pool a run uses: the one opened ahead (left open), or its own (closed after it). */
export async function poolFor(work: PoolWork): Promise<{ readonly pool: ChunkPool; readonly owned: boolean }> {
  if (work.pool) return { pool: (await work.pool) as ChunkPool, owned: false };
  // A thread is started for each worker at once: more than the run has chunks would start for nothing.
  const workers = Math.min(work.workers ?? defaultWorkerCount(), work.chunksAtMost ?? Infinity);
  return { pool: await openChunkPool(Math.max(1, workers), work.workerYoungGenerationMb), owned: true };
}

/** What a run says of the pool it wants. */
export interface PoolWork {
  readonly pool?: Promise<WorkerPool>;
  readonly workers?: number;
  readonly workerYoungGenerationMb?: number;
  /** How many chunks the run can have at most, when its inputs tell (none is gzip). */
  readonly chunksAtMost?: number;
}

/** One worker per core: for folds that are light on the main thread. */
export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism());
}

/**
 * One core left to the main thread: for folds that are heavy there (an
 * import's writes). Measured on 2 cores: 1 worker imports in 4.5 s what 2
 * workers take 5.3 s for, because the workers starve the writing thread.
 */
export function writerWorkerCount(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** A chunk's reply when its thread died or the pool broke: WORKER_FAILED, as data. */
function workerFailed(task: ChunkTask, error: unknown): ChunkReply<never> {
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'failed',
    start: task.nominalStart,
    end: task.nominalStart,
    error: { code: ErrorCode.WorkerFailed, message: `a worker thread failed: ${message}`, threadDied: true },
  };
}

/** A piscina pool whose failures come back as data with a code, so a dead worker never hangs a run. */
export async function openChunkPool(workers: number, youngGenerationMb?: number): Promise<ChunkPool> {
  const { Piscina } = await import('piscina');
  const limits = youngGenerationMb ? { resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } } : {};
  const threads = { minThreads: workers, maxThreads: workers };
  const pool = new Piscina({ filename: WORKER_START, ...threads, idleTimeout: 60_000, ...limits });
  // A thread that dies with none of our tasks in flight is the pool's 'error': unheard, it would be an uncaught
  // exception of the main thread. It fails every task from then on, since piscina may not replace such a thread.
  // Each run races its own promise of that death, let go when the run ends: racing one shared promise instead
  // left a reaction on it per run, which held every reply (and every chunk's partial) until the pool closed.
  let death: { readonly error: unknown } | undefined;
  const dying = new Set<(error: unknown) => void>();
  pool.on('error', (error: unknown) => {
    death = { error };
    for (const fail of dying) fail(error);
  });
  return {
    workers,
    async run<P>(task: ChunkTask): Promise<ChunkReply<P>> {
      if (death) return workerFailed(task, death.error);
      // A chunk's own bytes (a decompressed stream's) move to the worker rather than being copied; a remote
      // input's chunk brings a connection to this process's fetch thread.
      const remotePort = task.remote ? { remotePort: openRemotePort() } : {};
      const transferList = [...(task.bytes ? [task.bytes.buffer as ArrayBuffer] : []),
        ...(remotePort.remotePort ? [remotePort.remotePort] : [])];
      const running = pool.run({ ...task, ...remotePort }, { transferList }) as Promise<ChunkReply<P>>;
      running.catch(() => undefined); // one that loses the race to a death rejects later, when the pool closes
      let fail: (error: unknown) => void = () => undefined;
      const died = new Promise<never>((_, reject) => (fail = reject));
      dying.add(fail);
      try {
        return await Promise.race([running, died]);
      } catch (error) {
        return workerFailed(task, error);
      } finally {
        dying.delete(fail);
      }
    },
    close: async () => {
      await Promise.race([pool.destroy(), delay(CLOSE_GRACE_MS, undefined, { ref: false })]);
    },
  };
}
