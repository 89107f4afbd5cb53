import { ErrorCode } from '../../../contract/error-code.js';
import { ExitCode } from '../../../contract/exit-code.js';
import { StintError } from '../../../contract/stint-error.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';
import { QUEUE_ENV } from '../../../runtime/authoring/framework-flags.js';
import type { CommandSpec } from '../../../runtime/authoring/command-spec.js';
import type { WorkerEntry } from '../../../engine/queue/worker-registry.js';
import { loadQueueModule } from '../../../engine/queue/queue-client.js';
import { QUEUE_ACCESS_EXITS } from './queue-access-exits.js';
import { WORKER_LIST_SCHEMA } from './worker-schemas.js';

/** `worker list`: the live workers of the program's queue namespace, every build. */
export const workerListCommand = (): CommandSpec => ({
  name: 'worker list',
  outputSchema: WORKER_LIST_SCHEMA,
  description: 'List the live workers of this program\'s queue (its namespace): id (unique per process), build,'
    + ' version, host, pid, concurrency, chunks done, started and last seen',
  dangerLevel: DangerLevel.Safe,
  flags: {
    queue: { type: 'string', description: 'The Redis of the workers: redis://host:port. Default: STINT_QUEUE' },
  },
  exitCodes: {
    [ExitCode.SUCCESS]: {
      description: 'The live workers, and this program\'s build (a worker of another build'
        + ' takes none of its chunks)',
      retryable: false, sideEffects: SideEffects.Complete,
    },
    ...QUEUE_ACCESS_EXITS,
  },
  examples: [
    { description: 'The workers on a local Redis', command: 'stint worker list --queue redis://127.0.0.1:6379' },
  ],
  async run({ flags }, ctx) {
    const url = (flags['queue'] as string | undefined) || ctx.env[QUEUE_ENV];
    if (!url) {
      throw new StintError(ErrorCode.ArgError, 'worker list needs a queue: --queue redis://host:port, or STINT_QUEUE', {
        phase: 'validation', context: { flag: '--queue' },
      });
    }
    const { listWorkers } = await loadQueueModule(() => import('../../../engine/queue/worker-listing.js'));
    const data = await listWorkers(url);
    return { exitCode: ExitCode.SUCCESS, data, text: () => listText(data) };
  },
});

function listText(data: { build: string; workers: readonly WorkerEntry[] }): string {
  const lines = data.workers.map((w) => `${w.id}  build ${w.build}  concurrency ${w.concurrency}  chunks ${w.chunks}`
    + `  last seen ${w.lastSeen}`);
  return [`build ${data.build}: ${data.workers.length} live worker(s)`, ...lines].join('\n') + '\n';
}
