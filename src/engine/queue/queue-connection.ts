import { setTimeout as delay } from 'node:timers/promises';
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

/**
 * A connection for work that may be skipped while Redis is away (the run's live key, the workers' sweep): its
 * commands fail at once then instead of waiting in an offline queue, so a close never hangs on them.
 */
export async function failFastClient(url: string): Promise<Redis> {
  const client = new Redis({
    ...redisOptions(url), lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0,
  });
  client.on('error', () => undefined); // each command answers for itself
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw unreachable(url, (error as Error).message || String(error));
  }
  return client;
}

/** Waits for the work to settle, no longer than `ms`: with Redis away, what it left is swept later. */
export async function settledWithin(work: Iterable<Promise<unknown>>, ms: number): Promise<void> {
  const guard = new AbortController();
  const waited = delay(ms, undefined, { signal: guard.signal }).catch(() => undefined);
  await Promise.race([Promise.allSettled(work), waited]);
  guard.abort();
}

/**
 * The work's answer, or a rejection once `ms` passed without one: BullMQ's commands wait in an offline queue
 * while Redis is away, so a look that never answers must count as Redis out of reach.
 */
export async function answeredWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  work.catch(() => undefined); // a late failure, after the limit, is not this caller's
  const guard = new AbortController();
  const late = delay(ms, undefined, { signal: guard.signal }).then(() => {
    throw new Error(`no answer within ${ms} ms`);
  });
  late.catch(() => undefined);
  try {
    return await Promise.race([work, late]);
  } finally {
    guard.abort();
  }
}
