import { Queue, type JobType } from 'bullmq';
import { runOfJob, type ChunkJobData, type ChunkJobResult } from './chunk-job.js';
import { chunkQueue, failFastClient, queueOptions, settledWithin } from './queue-connection.js';
import { isLive, LIVE_TTL_MS } from './run-liveness.js';

/** Where a run's leftovers rest once no worker holds them (a held one is dropped by its worker as it ends). */
const RESTING: JobType[] = ['completed', 'failed', 'wait', 'delayed', 'prioritized'];
/** Job ids looked at per sweep (ids only: a job's data, which may carry a chunk's bytes, is not read). */
const SWEEP_BATCH = 1_000;
/** Half the live key's life: what a dead coordinator left goes within 1.5 of its lives. */
const SWEEP_MS = LIVE_TTL_MS / 2;
/** How long a worker's close waits for a sweep in flight (Redis away: the next worker's sweep does it). */
const CLOSE_WAIT_MS = 2_000;

/**
 * The workers' side of "nothing of an ended run stays in Redis". A coordinator that closes removes its
 * chunks, but not one a worker holds (locked): that one is removed by its worker as it ends. A coordinator
 * that stops without closing (killed, or answering a stop while a chunk it waits for is held) leaves its
 * chunks: once its live key expired, a sweep (at start, then every SWEEP_MS) removes them.
 */
export interface LeftoverSweep {
  /** Removes this job when its run is no longer live. */
  dropIfEnded(jobId: string | undefined): void;
  close(): Promise<void>;
}

export async function startLeftoverSweep(url: string): Promise<LeftoverSweep> {
  const client = await failFastClient(url);
  const queue = new Queue<ChunkJobData, ChunkJobResult, string>(chunkQueue(), queueOptions(url));
  queue.on('error', () => undefined); // an outage: the next sweep tries again
  const busy = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const settled = work.catch(() => undefined);
    busy.add(settled);
    void settled.finally(() => busy.delete(settled));
  };
  /** Removes the jobs of runs that are not live (one look per run). */
  const dropEnded = async (ids: readonly string[]) => {
    const live = new Map<string, Promise<boolean>>();
    for (const id of ids) {
      const run = runOfJob(id);
      if (run === undefined) continue;
      if (!live.has(run)) live.set(run, isLive(client, run));
      if (!(await live.get(run))) await queue.remove(id).catch(() => undefined);
    }
  };
  const sweep = async () => dropEnded(await queue.getRanges(RESTING, 0, SWEEP_BATCH));
  track(sweep());
  const timer = setInterval(() => track(sweep()), SWEEP_MS);
  return {
    dropIfEnded(jobId) {
      if (jobId) track(dropEnded([jobId]));
    },
    async close() {
      clearInterval(timer);
      // Once more as it stops: a chunk this worker handed back just before its run ended (after its coordinator
      // removed the run's chunks, before its live key went) has no other worker left to sweep it, perhaps.
      track(sweep());
      await settledWithin(busy, CLOSE_WAIT_MS);
      client.disconnect();
      await queue.close().catch(() => undefined);
    },
  };
}
