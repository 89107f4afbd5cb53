import type { CodeTable } from '../../contract/code-table.js';
import { buildEnvelope, type Envelope, type WarningDetail } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode, SignalExitCode, type ProcessExitCode } from '../../contract/exit-code.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import type { CommandResult } from '../authoring/command-spec.js';
import type { RegisteredCommand } from '../authoring/define-command.js';
import type { Invocation } from './invocation.js';
import { checkCodes } from './undeclared-code.js';

/** Meta every response of this call carries. */
export function callMeta(
  inv: Pick<Invocation, 'program' | 'command' | 'options' | 'confirmed'>,
  timeoutMs?: number,
): Record<string, unknown> {
  const timeout = timeoutMs ?? inv.options.timeoutMs;
  return {
    command: inv.command.path.join(' '),
    tool_version: inv.program.identity.version,
    ...(inv.options.budgetMs !== undefined ? { budget_ms: inv.options.budgetMs } : {}),
    ...(timeout !== undefined ? { timeout_ms: timeout } : {}),
    ...(inv.confirmed ? { confirmed: true } : {}),
  };
}

/**
 * An exit the command did not declare, or a code its program does not declare, is a defect in the command,
 * reported as such. A program's own code also takes the retryability its declaration gives.
 */
export function checkDeclared(command: RegisteredCommand, result: CommandResult, codes: CodeTable): CommandResult {
  if (Object.hasOwn(command.exitCodes, result.exitCode)) return checkCodes(command, result, codes);
  return {
    exitCode: ExitCode.GENERAL_ERROR,
    error: {
      code: ErrorCode.UndeclaredExitCode,
      message: `command "${command.path.join(' ')}" tried to exit ${result.exitCode}, which it does not declare`,
      retryable: false,
      phase: Phase.Execution,
      context: { attempted_exit_code: result.exitCode, ...(result.error ? { attempted_error: result.error } : {}) },
    },
    ...(result.warnings ? { warnings: result.warnings } : {}),
  };
}

/** The response of a handler that ran to its end. */
export function finalEnvelope(
  inv: Invocation,
  result: CommandResult,
  warnings: readonly WarningDetail[],
  meta: Record<string, unknown> = callMeta(inv),
): Envelope {
  if (result.verbatim && Object.hasOwn(inv.command.exitCodes, result.verbatim.meta.exit_code)) return result.verbatim;
  const all = [...warnings, ...(result.warnings ?? [])];
  const checked = checkDeclared(inv.command, { ...result, warnings: all }, inv.program.codes);
  return buildEnvelope({
    exitCode: checked.exitCode as ProcessExitCode,
    durationMs: inv.host.now() - inv.started,
    data: checked.data ?? null,
    error: checked.exitCode === ExitCode.SUCCESS ? null : (checked.error ?? null),
    warnings: checked.warnings ?? [],
    meta: { ...checked.meta, ...meta },
  });
}

/** Exits after which nothing is left to continue, so the checkpoint goes. */
export function workEnded(exitCode: number): boolean {
  return exitCode !== ExitCode.INCOMPLETE
    && exitCode !== ExitCode.GENERAL_ERROR
    && exitCode !== ExitCode.TIMEOUT
    && exitCode !== ExitCode.UNAVAILABLE;
}

/** The answer to a signal that ends a call with no safe point to reach: CANCELLED, 130 (SIGINT) or 143 (SIGTERM). */
export function cancelledEnvelope(
  inv: Invocation,
  signal: 'SIGINT' | 'SIGTERM',
  data: object = {},
  message = `Command cancelled by ${signal}`,
): Envelope {
  return buildEnvelope({
    exitCode: SignalExitCode[signal],
    durationMs: inv.host.now() - inv.started,
    data: { ...data, partial: true },
    meta: callMeta(inv),
    error: {
      code: ErrorCode.Cancelled,
      message,
      retryable: false,
      phase: Phase.Execution,
      context: { signal },
    },
  });
}
