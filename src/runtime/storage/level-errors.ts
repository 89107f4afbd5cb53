import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';

/** classic-level reports a database held by another process as LEVEL_LOCKED (directly or as the cause). */
export function isLevelLocked(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === 'LEVEL_LOCKED' || e?.cause?.code === 'LEVEL_LOCKED';
}

/** DATABASE_LOCKED (12): retryable, nothing was changed. */
export function databaseLocked(what: string, dir: string): StintError {
  return new StintError(ErrorCode.DatabaseLocked, `${what} at ${dir} is held by another process`, {
    retryable: true,
    retry_after_ms: 1000,
    retry_strategy: 'exponential_backoff',
    context: { path: dir },
    suggestion: 'Wait for the other process to finish (see: job list), then call again',
  });
}
