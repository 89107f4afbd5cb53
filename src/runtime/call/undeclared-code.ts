import type { CodeTable } from '../../contract/code-table.js';
import type { ErrorDetail } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import type { CommandResult } from '../authoring/command-spec.js';
import type { RegisteredCommand } from '../authoring/define-command.js';

type Refusal = typeof ErrorCode.UndeclaredErrorCode | typeof ErrorCode.UndeclaredWarningCode;

/** The answer that replaces a result carrying a code no one declared: exit 1, the attempt in `context`. */
function refused(result: CommandResult, code: Refusal, message: string, context: object): CommandResult {
  const error: ErrorDetail = { code, message, retryable: false, phase: Phase.Execution, context: { ...context } };
  return { exitCode: ExitCode.GENERAL_ERROR, error, ...(result.warnings ? { warnings: result.warnings } : {}) };
}

/**
 * Codes a command may emit are the framework's and the ones its program declares; a program's error code
 * goes out only under the exit code it is declared with. Anything else is a defect in the command, refused
 * the way an undeclared exit code is. A program's code takes its declared retryability unless the error says.
 */
export function checkCodes(command: RegisteredCommand, result: CommandResult, codes: CodeTable): CommandResult {
  const name = `command "${command.path.join(' ')}"`;
  const warning = result.warnings?.find((w) => !codes.knowsWarning(w.code));
  if (warning) {
    const message = `${name} warned ${warning.code}, which its program does not declare`;
    return refused(result, ErrorCode.UndeclaredWarningCode, message, { attempted_warning: warning });
  }
  const error = result.error;
  if (!error || result.exitCode === ExitCode.SUCCESS) return result;
  const attempt = { attempted_exit_code: result.exitCode, attempted_error: error };
  if (codes.exitCodeOf(error.code) === undefined) {
    const message = `${name} answered ${error.code}, which its program does not declare`;
    return refused(result, ErrorCode.UndeclaredErrorCode, message, attempt);
  }
  const declared = codes.declaredError(error.code);
  if (!declared) return result;
  if (declared.exitCode !== result.exitCode) {
    const declaredExit = declared.exitCode;
    const message = `${name} answered ${error.code} with exit ${result.exitCode}; its exit is ${declaredExit}`;
    return refused(result, ErrorCode.UndeclaredErrorCode, message, { ...attempt, declared_exit_code: declaredExit });
  }
  return error.retryable === undefined ? { ...result, error: { ...error, retryable: declared.retryable } } : result;
}
