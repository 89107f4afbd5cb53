import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';

/** The queue every program's chunks go to, and the key prefix of its Redis keys. */
export const CHUNK_QUEUE = 'chunks';
export const QUEUE_PREFIX = 'stint';

/** How long a first connection may take before the call answers QUEUE_UNREACHABLE. */
const CONNECT_TIMEOUT_MS = 5_000;

/** ioredis options for a redis:// URL; BullMQ's blocking connections want no per-request retry limit. */
export function redisOptions(url: string): RedisOptions {
  const parsed = parseUrl(url);
  const db = Number(parsed.pathname.replace(/^\//, '') || 0);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: Number(parsed.port || 6379),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

function parseUrl(url: string): URL {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'redis:' || parsed.protocol === 'rediss:') return parsed;
  } catch {
    // refused below, with the same code
  }
  throw new StintError(ErrorCode.ArgError, `--queue ${JSON.stringify(url)} is not a redis:// URL`, {
    phase: 'validation',
    suggestion: 'Give the queue as redis://host:port (or rediss:// for TLS)',
    context: { flag: '--queue', value: url },
  });
}

/** The URL without its password, for messages and logs. */
export function shownUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

export function unreachable(url: string, why: string): StintError {
  return new StintError(ErrorCode.QueueUnreachable, `the queue at ${shownUrl(url)} cannot be reached: ${why}`, {
    retryable: true,
    context: { url: shownUrl(url) },
    suggestion: 'Start Redis there (or fix --queue / STINT_QUEUE), then run the same command again',
  });
}

/** Answers once Redis at `url` answers a PING; QUEUE_UNREACHABLE (naming the URL) when it does not in time. */
export async function checkReachable(url: string): Promise<void> {
  const client = new Redis({
    ...redisOptions(url), lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false,
  });
  client.on('error', () => undefined); // answered below
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw unreachable(url, (error as Error).message || String(error));
  } finally {
    client.disconnect();
  }
}
