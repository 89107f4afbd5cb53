import { FRAMEWORK_CODES, type CodeTable } from '../../contract/code-table.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { StintError, isStintErrorLike } from '../../contract/stint-error.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import type { CommandResult } from '../authoring/command-spec.js';
import { codedIoError } from '../storage/io-errors.js';

/**
 * A thrown StintError keeps its code, under the exit code `codes` declares for it (GENERAL_ERROR for a code no
 * one declares, which the final envelope then refuses); a full disk gets its own; anything else is INTERNAL_ERROR.
 */
export function resultOfThrown(thrown: unknown, codes: CodeTable = FRAMEWORK_CODES): CommandResult {
  const coded = thrown instanceof StintError ? thrown : codedIoError(thrown);
  if (coded) return { exitCode: codes.exitCodeOf(coded.code) ?? ExitCode.GENERAL_ERROR, error: coded.toDetail() };
  const message = isStintErrorLike(thrown) ? thrown.message : thrown instanceof Error ? thrown.message : String(thrown);
  return {
    exitCode: ExitCode.GENERAL_ERROR,
    error: {
      code: ErrorCode.InternalError,
      message: message.split('\n')[0] || 'unexpected error',
      retryable: false,
      phase: Phase.Execution,
    },
  };
}
