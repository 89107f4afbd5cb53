import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';
import type { WireError } from './worker/worker-protocol.js';

/**
 * A failed worker as the call's answer: WORKER_FAILED (exit 1), with the
 * checkpoint kept. A thread that died (not a map that threw) is retryable:
 * the identical call continues from the checkpoint on fresh threads.
 */
export function workerFailedError(error: WireError): StintError {
  const retry = { retryable: true, suggestion: 'Run the same command again: it continues from the last checkpoint' };
  return new StintError(ErrorCode.WorkerFailed, error.message, error.threadDied ? retry : {});
}
