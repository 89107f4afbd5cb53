import type { WarningDetail } from '../../contract/envelope.js';
import { WarningCode } from '../../contract/warning-code.js';
import { buildIdentity } from '../map-registry.js';
import { leftOut, leftOutKey } from './left-out.js';
import { failFastClient } from './queue-connection.js';
import { liveWorkers } from './worker-registry.js';

/** The coordinator's side of left-out workers: a warning for each, and whether any live worker is left. */
export interface LeftOutWatch {
  /** Why no live worker of this build can read the input (every one is left out), or undefined. */
  noneLeft(): Promise<string | undefined>;
  close(): Promise<void>;
}

export async function watchLeftOut(
  url: string, runKey: string, warn: (warning: WarningDetail) => void,
): Promise<LeftOutWatch> {
  const client = await failFastClient(url);
  const warned = new Set<string>();
  return {
    async noneLeft() {
      const out = await leftOut(client, runKey);
      for (const [worker, why] of Object.entries(out)) {
        if (warned.has(worker)) continue;
        warned.add(worker);
        warn({
          code: WarningCode.WorkerLeftOut, message: `${why}: left out of this run, its chunks ran on other workers`,
          context: { worker },
        });
      }
      if (warned.size === 0) return undefined;
      const live = (await liveWorkers(client)).filter((worker) => worker.build === buildIdentity());
      if (!live.every((worker) => worker.id in out)) return undefined;
      return `no worker reads the input as this call does: ${Object.values(out).join('; ')}`;
    },
    async close() {
      await client.del(leftOutKey(runKey)).catch(() => undefined);
      client.disconnect();
    },
  };
}
