import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { QueueOptions, RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { SecretEnv } from '../../contract/vocabulary/secret-env.js';
import { buildIdentity, registeredProgram } from '../map-registry.js';

/** Where a queue's settings come from besides the URL: the same for the coordinator and its workers. */
export const QueueEnv = {
  /** The Redis password (and, with a user name in the URL, that user's): never kept in a URL. */
  Password: SecretEnv.Queue,
  /** The key prefix: two teams or programs on one Redis each set their own (default: the program's name). */
  Namespace: 'STINT_QUEUE_NAMESPACE',
  /** A shared secret: chunk jobs and results are signed with it (HMAC-SHA256), and what does not verify is dropped. */
  Secret: 'STINT_QUEUE_SECRET',
  /** rediss:// only: PEM files of the CA to trust, and of a client certificate and its key. */
  TlsCa: 'STINT_QUEUE_TLS_CA',
  TlsCert: 'STINT_QUEUE_TLS_CERT',
  TlsKey: 'STINT_QUEUE_TLS_KEY',
  /** How often a chunk job is tried in all (default 3), and the first retry's delay (doubling; default none). */
  Attempts: 'STINT_QUEUE_ATTEMPTS',
  BackoffMs: 'STINT_QUEUE_BACKOFF_MS',
  /** How long a call's chunks wait with no live worker of its build before it gives up (default 120 s). */
  NoWorkerMs: 'STINT_QUEUE_NO_WORKER_MS',
} as const;

/** The key prefix of every Redis key of this program's queue. */
export const queuePrefix = (): string => process.env[QueueEnv.Namespace] || registeredProgram();

/** The queue of this build's chunks: a worker of another build never takes them (BullMQ forbids `:` here). */
export const chunkQueue = (): string => `chunks-${buildIdentity()}`;

/**
 * BullMQ's event stream keeps this many events (its default, 10,000): events name jobs and carry no results
 * (a worker puts a chunk's reply in the job itself), so a few hundred bytes each.
 */
const EVENTS_MAX_LEN = 1_000;

/** Where a Worker or QueueEvents of the chunk queue connects, and its keys' prefix. */
export const queueBase = (url: string): { connection: RedisOptions; prefix: string } =>
  ({ connection: redisOptions(url), prefix: queuePrefix() });

/** What every Queue of the chunk queue is opened with: each one writes the event stream's cap into Redis. */
export const queueOptions = (url: string): QueueOptions =>
  ({ ...queueBase(url), streams: { events: { maxLen: EVENTS_MAX_LEN } } });

/** How long a first connection may take before the call answers QUEUE_UNREACHABLE. */
const CONNECT_TIMEOUT_MS = 5_000;

/** ioredis options for a redis:// URL; BullMQ's blocking connections want no per-request retry limit. */
export function redisOptions(url: string): RedisOptions {
  const parsed = parseUrl(url);
  const db = Number(parsed.pathname.replace(/^\//, '') || 0);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: Number(parsed.port || 6379),
    ...passwordOf(parsed),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: tlsOptions() } : {}),
    maxRetriesPerRequest: null,
  };
}

/** The URL's password, else STINT_QUEUE_PASSWORD's (the one way that keeps it out of argv and job records). */
function passwordOf(parsed: URL): { password?: string } {
  const password = parsed.password ? decodeURIComponent(parsed.password) : process.env[QueueEnv.Password];
  return password ? { password } : {};
}

/** The CA and client certificate files a rediss:// connection uses, when set. */
function tlsOptions(): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  const read = (name: string) => {
    const file = process.env[name];
    return file ? readFileSync(file) : undefined;
  };
  const [ca, cert, key] = [read(QueueEnv.TlsCa), read(QueueEnv.TlsCert), read(QueueEnv.TlsKey)];
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
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

/** The URL without its password, for messages, logs and records (the password comes from the environment). */
export function shownUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1@').replace(/\/\/@/, '//');
}

/** A connection's failure as a coded error: refused credentials and missing rights are not outages. */
export function connectionFailure(url: string, why: string): StintError {
  if (/NOAUTH|WRONGPASS|invalid password|invalid username-password/i.test(why)) {
    return new StintError(ErrorCode.AuthRequired, `the queue at ${shownUrl(url)} refused the credentials: ${why}`, {
      retryable: false,
      context: { url: shownUrl(url) },
      suggestion: `Set ${QueueEnv.Password} (and the user in the URL: redis://user@host:port), then run it again`,
    });
  }
  if (/NOPERM/i.test(why)) {
    return new StintError(ErrorCode.PermissionDenied, `the queue at ${shownUrl(url)} denies a command: ${why}`, {
      retryable: false,
      context: { url: shownUrl(url) },
      suggestion: 'Give the Redis user the rights docs/many-machines.md lists (its ACL), then run it again',
    });
  }
  return unreachable(url, why);
}

export function unreachable(url: string, why: string): StintError {
  return new StintError(ErrorCode.QueueUnreachable, `the queue at ${shownUrl(url)} cannot be reached: ${why}`, {
    retryable: true,
    context: { url: shownUrl(url) },
    suggestion: 'Start Redis there (or fix --queue / STINT_QUEUE), then run the same command again',
  });
}

/**
 * Answers once Redis at `url` answers a PING and an INFO (BullMQ asks it for the server's version); otherwise
 * AUTH_REQUIRED, PERMISSION_DENIED or QUEUE_UNREACHABLE, naming the URL without its password.
 */
export async function checkReachable(url: string): Promise<void> {
  const client = new Redis({
    ...redisOptions(url), lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false,
  });
  // The first error says why (a refused AUTH); a later "Connection is closed" says only that it ended.
  let first: string | undefined;
  client.on('error', (error: Error) => (first ??= error.message));
  try {
    await client.connect();
    await client.ping();
    await client.info('server');
  } catch (error) {
    throw connectionFailure(url, first ?? ((error as Error).message || String(error)));
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
    throw connectionFailure(url, (error as Error).message || String(error));
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
