import type { Redis } from 'ioredis';
import { failFastClient, queuePrefix } from './queue-connection.js';

/**
 * How long a run stays "live" in Redis without its coordinator renewing it: a coordinator killed with kill -9
 * stops renewing, and the workers then remove what its run left (leftover-sweep.ts).
 */
export const LIVE_TTL_MS = 10_000;
const RENEW_MS = 2_000;

/** The key that says a coordinator still reads this run's chunks; gone once the run ended (or its coordinator). */
export const liveKey = (runKey: string): string => `${queuePrefix()}:live:${runKey}`;

export async function isLive(client: Redis, runKey: string): Promise<boolean> {
  return (await client.exists(liveKey(runKey))) === 1;
}

/** The coordinator's side: the run is live from now, renewed until `end()` removes the key. */
export interface Liveness {
  end(): Promise<void>;
}

export async function keepLive(url: string, runKey: string): Promise<Liveness> {
  const client = await failFastClient(url);
  const key = liveKey(runKey);
  const renew = () => client.set(key, '1', 'PX', LIVE_TTL_MS);
  await renew();
  // A renewal lost in a Redis outage is made again at the next tick; the poll sees the outage itself.
  const timer = setInterval(() => void renew().catch(() => undefined), RENEW_MS);
  return {
    async end() {
      clearInterval(timer);
      // Redis away: the key expires on its own.
      await client.del(key).catch(() => undefined);
      client.disconnect();
    },
  };
}
