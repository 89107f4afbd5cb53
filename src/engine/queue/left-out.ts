import type { Redis } from 'ioredis';
import { queuePrefix } from './queue-connection.js';

/**
 * The workers left out of a run because they cannot read its input as the coordinator does (a missing file,
 * another size or mtime, other bytes): a worker writes itself here and hands the run's chunks back to the
 * queue for others; the coordinator warns of each and fails the run only once no live worker is left.
 */
export const leftOutKey = (runKey: string): string => `${queuePrefix()}:left-out:${runKey}`;

/** Long enough for any run; the coordinator removes it as it closes (it holds worker ids and reasons only). */
const LEFT_OUT_TTL_MS = 24 * 3_600_000;

export async function leaveOut(client: Redis, runKey: string, worker: string, why: string): Promise<void> {
  await client.hset(leftOutKey(runKey), worker, why);
  await client.pexpire(leftOutKey(runKey), LEFT_OUT_TTL_MS);
}

/** worker id → why it is left out of the run. */
export const leftOut = async (client: Redis, runKey: string): Promise<Record<string, string>> =>
  client.hgetall(leftOutKey(runKey));
