import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { failFastClient, queuePrefix } from './queue-connection.js';

/** A live worker as `worker list` shows it. */
export interface WorkerEntry {
  /** Unique per process: host, pid and a random part (two containers may share a host name and pid 1). */
  readonly id: string;
  readonly build: string;
  readonly version: string;
  readonly host: string;
  readonly pid: number;
  readonly concurrency: number;
  readonly chunks: number;
  readonly startedAt: string;
  readonly lastSeen: string;
}

/** A worker renews its entry this often; one not renewed for STALE_MS is gone (killed) and dropped. */
export const HEARTBEAT_MS = 2_000;
const STALE_MS = 5 * HEARTBEAT_MS;

const registryKey = (): string => `${queuePrefix()}:workers`;

/** A new worker's id. */
export const newWorkerId = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * The workers that renewed their entry lately; stale ones are removed on the way. The registry's times are written
 * and read on different machines, so each reads its machine's wall clock (Date.now), never a Host's.
 */
export async function liveWorkers(client: Redis, now = Date.now()): Promise<WorkerEntry[]> {
  const all = await client.hgetall(registryKey());
  const live: WorkerEntry[] = [];
  for (const [id, text] of Object.entries(all)) {
    const entry = parseEntry(text);
    if (entry && now - Date.parse(entry.lastSeen) < STALE_MS) live.push(entry);
    else await client.hdel(registryKey(), id);
  }
  return live.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

function parseEntry(text: string): WorkerEntry | undefined {
  try {
    const entry = JSON.parse(text) as WorkerEntry;
    return typeof entry.id === 'string' && typeof entry.lastSeen === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** A worker's own entry: renewed every HEARTBEAT_MS with its chunk count, removed as it stops. */
export interface Registration {
  end(): Promise<void>;
}

export async function registerWorker(
  url: string, entry: Omit<WorkerEntry, 'chunks' | 'lastSeen'>, chunks: () => number,
): Promise<Registration> {
  const client = await failFastClient(url);
  // The machine's wall clock, as liveWorkers reads it on another machine.
  const renew = () => client.hset(registryKey(), entry.id, JSON.stringify({
    ...entry, chunks: chunks(), lastSeen: new Date().toISOString(),
  }));
  await renew();
  // Redis away: the next beat renews it (a worker gone a while shows again once Redis is back).
  const timer = setInterval(() => void renew().catch(() => undefined), HEARTBEAT_MS);
  return {
    async end() {
      clearInterval(timer);
      await client.hdel(registryKey(), entry.id).catch(() => undefined);
      client.disconnect();
    },
  };
}
