import type { WarningDetail } from '../../contract/envelope.js';
import { WarningCode } from '../../contract/warning-code.js';
import { buildIdentity } from '../map-registry.js';
import { failFastClient, QueueEnv } from './queue-connection.js';
import { whole } from './retry-options.js';
import { liveWorkers } from './worker-registry.js';

/**
 * How long a run's chunks may wait with no live worker of this build before the call gives up (retryable):
 * workers may be started after the coordinator, but a call must not wait silently for ever.
 */
const NO_WORKER_LIMIT_MS = 120_000;
/** After this long (or half the limit, if shorter) without one, the answer says so with a warning. */
const WARN_AFTER_MS = 10_000;

/** STINT_QUEUE_NO_WORKER_MS (1 ms to a day), else the default; out of range is ARG_ERROR. */
export const noWorkerLimitMs = (env: NodeJS.ProcessEnv): number =>
  whole(env, QueueEnv.NoWorkerMs, 1, 86_400_000) ?? NO_WORKER_LIMIT_MS;

/** The coordinator's watch on whether any live worker of its build is there to take its chunks. */
export interface PresenceWatch {
  /** Why the run gives up (none for the whole limit), or undefined; warns once on the way. */
  absent(now: number): Promise<string | undefined>;
  close(): void;
}

export async function watchPresence(
  url: string, limitMs: number, warn: (warning: WarningDetail) => void,
): Promise<PresenceWatch> {
  const client = await failFastClient(url);
  const build = buildIdentity();
  let since: number | undefined;
  let warned = false;
  return {
    async absent(now) {
      const workers = await liveWorkers(client);
      const others = workers.filter((worker) => worker.build !== build).length;
      if (others < workers.length) {
        since = undefined;
        return undefined;
      }
      since ??= now;
      const why = `no live \`stint worker\` of this build (${build}) is on the queue`
        + (others > 0 ? ` (${others} of another build, which take none of its chunks)` : '');
      if (!warned && now - since >= Math.min(WARN_AFTER_MS, limitMs / 2)) {
        warned = true;
        warn({ code: WarningCode.NoLiveWorker, message: `${why}: the chunks wait for one`, context: { build } });
      }
      if (now - since < limitMs) return undefined;
      return `${why} after ${limitMs / 1000} s: start one (\`stint worker --queue <url>\`) and run the same command`
        + ' again';
    },
    close: () => client.disconnect(),
  };
}
