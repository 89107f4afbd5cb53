import type { WarningDetail } from '../contract/envelope.js';
import { poolFor, type ChunkPool } from './chunk-pool.js';
import { loadQueueModule } from './queue/queue-client.js';

/** Where a call's chunks run instead of threads here: its --queue URL, and its key (the chunks' job ids). */
export interface QueueTarget {
  readonly queue?: string;
  readonly invocationKey: string;
  /** Told the distinct workers (their ids) that completed chunks so far, as one more is seen. */
  queueWorkers?(workers: readonly string[]): void;
  /** Adds a warning to the call's answer (a queue worker left out of the run). */
  warn?(warning: WarningDetail): void;
}

/** Chunks in flight on a queue when the call gives no --workers: enough to keep a few machines busy. */
const QUEUE_WORKERS = 8;

/**
 * The pool a run uses: a queue's when the call names one (closed after it), else the threads here (poolFor).
 * Redis and BullMQ load only for a call with --queue, and their absence answers QUEUE_CLIENT_MISSING.
 */
export async function choosePool(
  work: Parameters<typeof poolFor>[0],
  target: QueueTarget,
): Promise<{ readonly pool: ChunkPool; readonly owned: boolean }> {
  if (!target.queue) return poolFor(work);
  const { openQueuePool } = await loadQueueModule(() => import('./queue/queue-pool.js'));
  const workers = work.workers ?? QUEUE_WORKERS;
  const onWorkers = (seen: readonly string[]) => target.queueWorkers?.(seen);
  const onWarning = (warning: WarningDetail) => target.warn?.(warning);
  const spec = { url: target.queue, runKey: target.invocationKey, workers, onWorkers, onWarning };
  return { pool: await openQueuePool(spec), owned: true };
}
