// The coded errors every database target answers alike.
import { ErrorCode } from '../../../contract/error-code.js';
import { StintError } from '../../../contract/stint-error.js';
import { StintCode } from '../../stint-codes.js';

/** NO_SPACE (12, retryable): what the database committed stays, the same call goes on once there is room. */
export function diskFull(what: string, detail?: string): StintError {
  return new StintError(ErrorCode.NoSpace, `${what} is full${detail === undefined ? '' : `: ${detail}`}`, {
    retryable: true,
    retry_after_ms: 60_000,
    suggestion: 'Free space on that disk, then run the same command again: the rows committed so far are kept',
  });
}

/** SCHEMA_MISMATCH (6): a row the table's own constraints refuse (NOT NULL, CHECK); its chunk is not kept. */
export function rowRefused(message: string, context: Record<string, unknown>): StintError {
  return new StintError(StintCode.SchemaMismatch, `the table refused a row: ${message}`, {
    context,
    fix_required: 'Import into a table without that constraint, or fix the rows it refuses',
  });
}
