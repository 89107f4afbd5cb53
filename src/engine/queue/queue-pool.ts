import { statSync } from 'node:fs';
import { Job, Queue, QueueEvents } from 'bullmq';
import { ErrorCode } from '../../contract/error-code.js';
import type { ChunkPool } from '../chunk-pool.js';
import type { ChunkReply, ChunkTask } from '../worker-protocol.js';
import { decodeClone, encodeClone } from './chunk-codec.js';
import { chunkJobId, type ChunkJobData, type ChunkJobResult, type FileSeen } from './chunk-job.js';
import {
  answeredWithin, CHUNK_QUEUE, checkReachable, QUEUE_PREFIX, redisOptions, settledWithin, shownUrl,
} from './queue-connection.js';
import { keepLive } from './run-liveness.js';

/** Between two looks at the jobs in flight, beside the completion events (an event lost in a Redis restart). */
const POLL_MS = 500;
/** A poll (or an add) that Redis does not answer within this long finds it out of reach. */
const ANSWER_LIMIT_MS = 5_000;
/** How long Redis may stay out of reach mid-run before the run answers a retryable failure. */
const OUTAGE_LIMIT_MS = 30_000;
/** Tests only: a shorter outage limit, so that a test of Redis gone for good ends soon. */
const outageLimitMs = () => Number(process.env['STINT_TEST_QUEUE_OUTAGE_MS'] ?? OUTAGE_LIMIT_MS);
/** How long a close waits for its removals: with Redis away, the workers sweep what they leave. */
const CLOSE_WAIT_MS = 2_000;
/** A job a worker failed (it threw, or it stalled too often) is tried this many times in all. */
const ATTEMPTS = 3;
/** A job no one removed (Redis lost the removal) goes after this long; the workers sweep ended runs sooner. */
const LEFTOVER_AGE_S = 3_600;

/** What the queue pool needs: the Redis URL, the run's key (job ids) and how many chunks to keep in flight. */
export interface QueuePoolSpec {
  readonly url: string;
  readonly runKey: string;
  /** The fold's window is twice this (chunked-run.ts): chunks enqueued ahead of it. */
  readonly workers: number;
  /** Told the distinct worker processes (their ids) that completed this run's chunks, each time one is new. */
  readonly onWorkers?: (workers: readonly string[]) => void;
}

interface Pending {
  readonly id: string;
  readonly data: ChunkJobData;
  readonly task: ChunkTask;
  readonly settle: (reply: ChunkReply<unknown>) => void;
}

/** A reply that is not the chunk's own: the queue failed it, or Redis went away. Retryable, as a dead thread. */
const failedReply = (task: ChunkTask, message: string): ChunkReply<never> => ({
  kind: 'failed',
  start: task.nominalStart,
  end: task.nominalStart,
  error: { code: ErrorCode.WorkerFailed, message, threadDied: true },
});

/**
 * The pool as a BullMQ queue: each chunk is a job the `worker` processes run; replies come back as the jobs'
 * return values, read when a completion event names the job or at the next poll. Redis must answer at open.
 */
export async function openQueuePool(spec: QueuePoolSpec): Promise<ChunkPool> {
  await checkReachable(spec.url);
  const connection = redisOptions(spec.url);
  const queue = new Queue<ChunkJobData, ChunkJobResult, string>(CHUNK_QUEUE, { connection, prefix: QUEUE_PREFIX });
  const events = new QueueEvents(CHUNK_QUEUE, { connection, prefix: QUEUE_PREFIX });
  queue.on('error', () => undefined); // a lost connection is seen by the poll (outage), not thrown
  events.on('error', () => undefined);
  // The run's live key (run-liveness.ts), set before any chunk is added.
  const live = await keepLive(spec.url, spec.runKey);
  const pending = new Map<string, Pending>();
  const removals = new Set<Promise<unknown>>();
  const remove = (id: string) => {
    const removal = queue.remove(id).catch(() => undefined);
    removals.add(removal);
    void removal.finally(() => removals.delete(removal));
  };
  const seen = new Map<string, FileSeen>();
  let downSince: number | undefined;
  const workersSeen = new Set<string>();
  const noteWorker = (worker: string) => {
    if (workersSeen.has(worker)) return;
    workersSeen.add(worker);
    spec.onWorkers?.([...workersSeen]);
  };

  const add = (entry: Pending) => queue.add('chunk', entry.data, {
    jobId: entry.id,
    attempts: ATTEMPTS,
    removeOnComplete: { age: LEFTOVER_AGE_S },
    removeOnFail: { age: LEFTOVER_AGE_S },
  });
  const finish = (entry: Pending, reply: ChunkReply<unknown>) => {
    pending.delete(entry.id);
    entry.settle(reply);
    // Read once, so gone: its id is this run's alone.
    remove(entry.id);
  };

  /** One look at a job: its reply when done, a failure when the queue gave up on it, re-added when Redis lost it. */
  async function look(entry: Pending): Promise<void> {
    const job = await Job.fromId<ChunkJobData, ChunkJobResult>(queue, entry.id);
    if (!pending.has(entry.id)) return;
    if (!job) {
      await add(entry);
      return;
    }
    const result = job.finishedOn ? job.returnvalue : undefined;
    if (typeof result?.reply === 'string') {
      noteWorker(result.worker);
      finish(entry, decodeClone<ChunkReply<unknown>>(result.reply));
    } else if (job.finishedOn && job.failedReason) {
      finish(entry, failedReply(entry.task, `a queue worker failed the chunk: ${job.failedReason}`));
    }
  }
  async function poll(): Promise<void> {
    try {
      const looks = async () => {
        for (const entry of [...pending.values()]) await look(entry);
      };
      await answeredWithin(looks(), ANSWER_LIMIT_MS);
      downSince = undefined;
    } catch (error) {
      downSince ??= Date.now();
      if (Date.now() - downSince < outageLimitMs()) return;
      const why = `the queue at ${shownUrl(spec.url)} stayed out of reach: ${(error as Error).message}`;
      for (const entry of [...pending.values()]) finish(entry, failedReply(entry.task, why));
    }
  }
  let polling = false;
  const timer = setInterval(() => {
    if (polling || pending.size === 0) return;
    polling = true;
    void poll().finally(() => (polling = false));
  }, POLL_MS);
  const onEvent = ({ jobId }: { jobId: string }) => {
    const entry = pending.get(jobId);
    if (entry) look(entry).catch(() => undefined);
  };
  events.on('completed', onEvent);
  events.on('failed', onEvent);
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);

  return {
    workers: spec.workers,
    async run<P>(task: ChunkTask): Promise<ChunkReply<P>> {
      const check = task.bytes ? undefined : seenOf(seen, task.path);
      const data: ChunkJobData = {
        task: encodeClone(task), path: task.path, nominalStart: task.nominalStart, ...(check ? { seen: check } : {}),
      };
      const id = chunkJobId(spec.runKey, task, check);
      const reply = new Promise<ChunkReply<unknown>>((settle) => pending.set(id, { id, data, task, settle }));
      // Redis away: the poll adds it once Redis is back, or fails it after the outage limit.
      await settledWithin([add(pending.get(id)!)], ANSWER_LIMIT_MS);
      return reply as Promise<ChunkReply<P>>;
    },
    async close() {
      clearInterval(timer);
      // Not live first: a chunk a worker holds now (it cannot be removed) is removed by that worker as it ends.
      await live.end();
      for (const entry of [...pending.values()]) {
        pending.delete(entry.id);
        // Not folded: nobody waits for them now (a stop), so they leave the queue.
        remove(entry.id);
      }
      await settledWithin(removals, CLOSE_WAIT_MS);
      await settledWithin([events.close(), queue.close()], CLOSE_WAIT_MS);
    },
  };
}

/** The file as the coordinator sees it, once per path: what each worker compares its own view with. */
function seenOf(seen: Map<string, FileSeen>, path: string): FileSeen {
  let file = seen.get(path);
  if (!file) {
    const stat = statSync(path);
    file = { path, size: stat.size, mtimeMs: stat.mtimeMs };
    seen.set(path, file);
  }
  return file;
}
