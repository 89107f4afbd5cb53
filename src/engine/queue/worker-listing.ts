import { buildIdentity } from '../map-registry.js';
import { checkReachable, failFastClient, queuePrefix } from './queue-connection.js';
import { liveWorkers, type WorkerEntry } from './worker-registry.js';

/** `worker list`'s answer: this program's build and namespace, and the live workers of that namespace. */
export async function listWorkers(url: string): Promise<{ build: string; namespace: string; workers: WorkerEntry[] }> {
  await checkReachable(url);
  const client = await failFastClient(url);
  try {
    return { build: buildIdentity(), namespace: queuePrefix(), workers: await liveWorkers(client) };
  } finally {
    client.disconnect();
  }
}
