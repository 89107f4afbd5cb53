// How a remote read fails, whatever the store (http-object.ts, s3-object.ts): a coded failure, retried with
// backoff and jitter while another attempt may pass (timeouts, resets, 5xx, throttling), then the answer.
import { ErrorCode } from '../../contract/error-code.js';
import type { WireError } from './worker-protocol.js';
import { shownUrl } from './remote-url.js';

/** Attempts of one request before its failure is the answer, and the pauses between them (doubling, jittered). */
const ATTEMPTS = 6;
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 4_000;
/** A coded failure of a request: `retry` when another attempt may pass. */
export class RemoteFailure extends Error {
  constructor(readonly wire: WireError, readonly retry: boolean, readonly retryAfterMs?: number) {
    super(wire.message);
  }
}

export const failure = (code: ErrorCode, message: string, context: Record<string, unknown>): WireError =>
  ({ code, message, context });

/** A status that is not the answer asked for, as a coded failure. */
export function statusFailure(status: number, url: string, retryAfter: string | null): RemoteFailure {
  const shown = shownUrl(url);
  const context = { url: shown, status };
  if (status === 404 || status === 410) {
    const message = `${shown} does not exist (HTTP ${status})`;
    return new RemoteFailure(failure(ErrorCode.FileNotFound, message, context), false);
  }
  if (status === 401) {
    const message = `${shown} needs credentials (HTTP 401): give them in the URL (https://user:password@host/…)`;
    return new RemoteFailure(failure(ErrorCode.AuthRequired, message, context), false);
  }
  if (status === 403) {
    return new RemoteFailure(failure(ErrorCode.PermissionDenied, `${shown} is refused (HTTP 403)`, context), false);
  }
  if (status === 412) {
    const message = `${shown} was replaced by another version while it was read (its ETag changed)`;
    return new RemoteFailure(failure(ErrorCode.InputChanged, message, context), false);
  }
  if (status === 429 || status === 503 || status >= 500) {
    const code = status === 429 ? ErrorCode.RemoteThrottled : ErrorCode.RemoteUnavailable;
    const seconds = Number(retryAfter);
    const wait = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
    return new RemoteFailure(failure(code, `${shown} answered HTTP ${status}`, context), true, wait);
  }
  return new RemoteFailure(failure(ErrorCode.FileUnreadable, `${shown} cannot be read (HTTP ${status})`, context),
    false);
}

/** A request that did not get an answer (refused, reset, timed out): worth another attempt. */
export function lostFailure(error: unknown, url: string): RemoteFailure {
  const { cause, code } = error as { cause?: { code?: string; message?: string }; code?: string };
  const reason = code ?? cause?.code ?? cause?.message ?? (error as Error).message;
  const shown = shownUrl(url);
  const message = `${shown} did not answer: ${reason}`;
  return new RemoteFailure(failure(ErrorCode.RemoteUnavailable, message, { url: shown, reason }), true);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `attempt` until it passes or fails for good; the last failure says how many attempts over how long. */
async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  const began = Date.now();
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RemoteFailure)) throw error;
      if (!error.retry || n >= ATTEMPTS) {
        const context = { ...error.wire.context, attempts: n, retried_for_ms: Date.now() - began };
        throw new RemoteFailure({ ...error.wire, context }, false);
      }
      const ceiling = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (n - 1));
      await pause(error.retryAfterMs ?? Math.random() * ceiling);
    }
  }
}

/** The answer of a request as the fetch thread passes it on: its value, or its coded failure. */
export type Answer<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: WireError };

export async function answer<T>(attempt: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, value: await withRetries(attempt) };
  } catch (error) {
    if (error instanceof RemoteFailure) return { ok: false, error: error.wire };
    return { ok: false, error: { code: ErrorCode.FileUnreadable, message: (error as Error).message } };
  }
}

