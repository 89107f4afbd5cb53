import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';

/** errno codes of a full disk or an exhausted quota. */
const NO_SPACE_ERRNOS = new Set(['ENOSPC', 'EDQUOT']);
/** LevelDB reports a full disk only in its message ("IO error: …: No space left on device"). */
const NO_SPACE_TEXT = /No space left on device|Disk quota exceeded/;

function isNoSpace(thrown: unknown): boolean {
  const error = thrown as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!error || typeof error !== 'object') return false;
  if (typeof error.code === 'string' && NO_SPACE_ERRNOS.has(error.code)) return true;
  if (typeof error.message === 'string' && NO_SPACE_TEXT.test(error.message)) return true;
  return error.cause !== undefined && isNoSpace(error.cause);
}

/**
 * A failure of the machine rather than of the call, with its code: a full
 * disk is NO_SPACE (12, retryable), because every write stint makes is
 * atomic, so what was committed before it stays and the identical call,
 * once there is room, continues.
 */
export function codedIoError(thrown: unknown): StintError | undefined {
  if (!isNoSpace(thrown)) return undefined;
  const detail = (thrown as Error).message?.split('\n')[0] ?? '';
  return new StintError(ErrorCode.NoSpace, `a disk this call writes to is full (${detail})`, {
    retryable: true,
    retry_after_ms: 60_000,
    suggestion: 'Free space on that disk, then run the same command again: the work committed so far is kept',
  });
}
