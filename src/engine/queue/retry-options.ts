import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { QueueEnv } from './queue-connection.js';

/** A chunk a worker failed (it threw, or the queue failed it) is tried this many times in all, by default. */
const DEFAULT_ATTEMPTS = 3;

/** How often BullMQ tries a chunk job, and how long it waits before each retry (doubling from `backoffMs`). */
export interface RetryOptions {
  readonly attempts: number;
  readonly backoff?: { readonly type: 'exponential'; readonly delay: number };
}

/** STINT_QUEUE_ATTEMPTS (1 to 100) and STINT_QUEUE_BACKOFF_MS (0 to an hour; default none), checked. */
export function retryOptions(env: NodeJS.ProcessEnv): RetryOptions {
  const attempts = whole(env, QueueEnv.Attempts, 1, 100) ?? DEFAULT_ATTEMPTS;
  const backoff = whole(env, QueueEnv.BackoffMs, 0, 3_600_000) ?? 0;
  return backoff > 0 ? { attempts, backoff: { type: 'exponential', delay: backoff } } : { attempts };
}

/** A whole number from the environment, checked: out of range is ARG_ERROR. */
export function whole(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  const message = `${name}=${JSON.stringify(text)} is not a whole number from ${min} to ${max}`;
  throw new StintError(ErrorCode.ArgError, message, {
    phase: 'validation', context: { env: name, value: text },
  });
}
