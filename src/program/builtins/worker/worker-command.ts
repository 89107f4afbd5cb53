import { availableParallelism } from 'node:os';
import { ErrorCode } from '../../../contract/error-code.js';
import { ExitCode } from '../../../contract/exit-code.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';
import { OutputFormat } from '../../../contract/vocabulary/output-format.js';
import type { CommandSpec } from '../../../runtime/authoring/command-spec.js';
import { loadQueueModule } from '../../../engine/queue/queue-client.js';
import { WorkerLog } from './worker-log.js';
import type { WorkerFlags } from './worker-run.js';
import { QUEUE_ACCESS_EXITS } from './queue-access-exits.js';
import { WORKER_SCHEMA } from './worker-schemas.js';


/** BullMQ's own lock duration: a dead worker's chunk runs again about this long after it died. */
export const DEFAULT_LOCK_MS = 30_000;

/**
 * `worker`: runs the chunks that calls with --queue put on a Redis queue, with the program's own map modules.
 * Every program built on stint gets it (program-with-worker.ts), so its commands' --queue has workers.
 */
export const workerCommand = (version: string): CommandSpec => ({
  name: 'worker',
  outputSchema: WORKER_SCHEMA,
  description: 'Run the chunks of calls given --queue: take chunk jobs from Redis and map them on threads here,'
    + ' until SIGTERM or SIGINT (finishes the chunks in hand, takes no more); stderr tells each chunk, a JSON'
    + ' object a line under --format json',
  dangerLevel: DangerLevel.Safe,
  // It hears SIGTERM itself to drain: a chunk in hand is finished, not abandoned to the stalled-job check.
  relay: true,
  flags: {
    queue: { type: 'string', description: 'The Redis to take chunks from: redis://host:port. Default: STINT_QUEUE' },
    concurrency: {
      type: 'integer', min: 1, max: 256, default: Math.max(1, availableParallelism()),
      description: 'Chunks at once, one thread each (default: one per core)',
    },
    'chunk-timeout': {
      type: 'duration', min: 1,
      description: 'A chunk still running after this long hangs: the worker stops (WORKER_FAILED, exit 1) and'
        + ' the chunk runs again elsewhere once its lock expires. Default: no limit',
    },
    'lock-duration': {
      type: 'duration', min: 500, default: DEFAULT_LOCK_MS,
      description: 'A chunk whose worker stops renewing its lock for this long (it died) runs again elsewhere',
    },
  },
  exitCodes: {
    [ExitCode.SUCCESS]: {
      description: 'Drained after a signal: the answer says how many chunks it ran',
      retryable: false, sideEffects: SideEffects.Complete,
    },
    [ExitCode.GENERAL_ERROR]: {
      description: 'A chunk ran past --chunk-timeout (WORKER_FAILED): the worker stopped; start it again',
      retryable: true, sideEffects: SideEffects.None, errorCodes: [ErrorCode.WorkerFailed],
    },
    ...QUEUE_ACCESS_EXITS,
  },
  examples: [
    {
      description: 'Two chunks at once for a local Redis',
      command: 'stint worker --queue redis://127.0.0.1:6379 --concurrency 2',
    },
  ],
  async run({ flags, options }, ctx) {
    const { runWorker } = await loadQueueModule(() => import('./worker-run.js'));
    const log = options.format === OutputFormat.Json ? WorkerLog.Json : WorkerLog.Text;
    return runWorker({ ...(flags as never as WorkerFlags), log }, ctx, version);
  },
});
