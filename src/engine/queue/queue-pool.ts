import { Job, Queue, QueueEvents } from 'bullmq';
import type { WarningDetail } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import type { ChunkPool } from '../chunk-pool.js';
import type { ChunkReply, ChunkTask } from '../worker/worker-protocol.js';
import { decodeClone } from './chunk-codec.js';
import { replySigned, type ChunkJobData, type ChunkJobResult } from './chunk-job.js';
import { chunkJob, type SeenFiles } from './chunk-job-data.js';
import { queueSecret, verifies } from './job-signature.js';
import { watchLeftOut } from './left-out-watch.js';
import {
  answeredWithin, checkReachable, chunkQueue, queueBase, queueOptions, settledWithin, shownUrl,
} from './queue-connection.js';
import { retryOptions } from './retry-options.js';
import { keepLive } from './run-liveness.js';
import { noWorkerLimitMs, watchPresence } from './worker-presence.js';

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
  /** Told each warning for the call's answer (a worker left out of the run). */
  readonly onWarning?: (warning: WarningDetail) => void;
}

interface Pending {
  readonly id: string;
  readonly data: ChunkJobData;
  readonly task: ChunkTask;
  readonly settle: (reply: ChunkReply<unknown>) => void;
  /** How often a worker refused it, or its result did not verify: it is added again, up to REDOS times. */
  redos: number;
}

/** A chunk refused by a worker (its job altered in Redis) or with a result that does not verify runs again. */
const REDOS = 5;

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
  // First: a setting out of range refuses the call before anything opens.
  const retries = retryOptions(process.env);
  const noWorkerLimit = noWorkerLimitMs(process.env);
  await checkReachable(spec.url);
  const queue = new Queue<ChunkJobData, ChunkJobResult, string>(chunkQueue(), queueOptions(spec.url));
  const events = new QueueEvents(chunkQueue(), queueBase(spec.url));
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
  const seen: SeenFiles = new Map();
  const leftOut = await watchLeftOut(spec.url, spec.runKey, (warning) => spec.onWarning?.(warning));
  const presence = await watchPresence(spec.url, noWorkerLimit, (w) => spec.onWarning?.(w));
  let downSince: number | undefined;
  const workersSeen = new Set<string>();
  const noteWorker = (worker: string) => {
    if (workersSeen.has(worker)) return;
    workersSeen.add(worker);
    spec.onWorkers?.([...workersSeen]);
  };

  const add = (entry: Pending) => queue.add('chunk', entry.data, {
    jobId: entry.id,
    ...retries,
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
    if (!job.finishedOn) return;
    const { reply, worker, replySig } = job.data;
    if (job.returnvalue && typeof reply === 'string' && typeof worker === 'string') {
      if (verifies(queueSecret(), replySig, replySigned(entry.id, reply, worker))) {
        noteWorker(worker);
        finish(entry, decodeClone<ChunkReply<unknown>>(reply));
      } else await redo(entry, 'its result does not verify with STINT_QUEUE_SECRET');
    } else if (job.failedReason?.startsWith(ErrorCode.JobRefused)) {
      await redo(entry, job.failedReason);
    } else if (job.failedReason) {
      finish(entry, failedReply(entry.task, `a queue worker failed the chunk: ${job.failedReason}`));
    }
  }
  /** Drops what Redis holds of the chunk and adds it again as this coordinator made it (or gives up). */
  async function redo(entry: Pending, why: string): Promise<void> {
    if (++entry.redos > REDOS) {
      finish(entry, failedReply(entry.task, `the chunk ran ${REDOS} times without a result to fold: ${why}`));
      return;
    }
    await queue.remove(entry.id);
    await add(entry);
  }
  async function poll(): Promise<void> {
    try {
      const looks = async () => {
        for (const entry of [...pending.values()]) await look(entry);
        const none = await leftOut.noneLeft();
        if (none) for (const entry of [...pending.values()]) finish(entry, notShared(entry.task, none));
        // Retryable, as a dead thread: with a worker started, the identical call continues from the checkpoint.
        // The queue's times are the machine's (real timers, workers' heartbeats from other machines), not a Host's.
        const absent = await presence.absent(Date.now());
        if (absent) for (const entry of [...pending.values()]) finish(entry, failedReply(entry.task, absent));
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
      const { id, data } = chunkJob(spec.runKey, task, seen);
      const reply = new Promise<ChunkReply<unknown>>((settle) => pending.set(id, { id, data, task, settle, redos: 0 }));
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
      presence.close();
      await settledWithin([events.close(), queue.close(), leftOut.close()], CLOSE_WAIT_MS);
    },
  };
}

/** No worker can read the input as the coordinator does: the chunk's coded failure (INPUT_NOT_SHARED). */
const notShared = (task: ChunkTask, message: string): ChunkReply<never> => ({
  kind: 'failed',
  start: task.nominalStart,
  end: task.nominalStart,
  error: { code: ErrorCode.InputNotShared, message, context: { path: task.path } },
});
