import { SideEffects } from './vocabulary/side-effects.js';

/** The fixed exit-code table, the same for every command and program. Nothing else is ever emitted. */
export const ExitCode = {
  SUCCESS: 0,
  GENERAL_ERROR: 1,
  ARG_ERROR: 2,
  PARTIAL_FAILURE: 3,
  PRECONDITION: 4,
  NOT_FOUND: 5,
  CONFLICT: 6,
  PERMISSION_DENIED: 7,
  AUTH_REQUIRED: 8,
  PAYMENT_REQUIRED: 9,
  TIMEOUT: 10,
  RATE_LIMITED: 11,
  UNAVAILABLE: 12,
  REDIRECTED: 13,
  INCOMPLETE: 14,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
/** The name of an exit code, as the manifest's `name` spells it (`INCOMPLETE`). */
export type ExitCodeName = keyof typeof ExitCode;

/** Exits that only the framework's signal handlers produce (128 + signal number). */
export const SignalExitCode = {
  SIGINT: 130,
  SIGTERM: 143,
} as const;
export type SignalExitCode = (typeof SignalExitCode)[keyof typeof SignalExitCode];

/** Any code a stint process may end with. */
export type ProcessExitCode = ExitCode | SignalExitCode;

/**
 * One row of an exit-code table as a command declares it; the manifest spells it in snake_case
 * (exit-code-entry.json).
 */
export interface ExitCodeEntry {
  readonly name?: string;
  readonly description: string;
  readonly retryable: boolean;
  readonly sideEffects: SideEffects;
  readonly errorCodes?: readonly string[];
}

const entry = (name: string, description: string, retryable: boolean, sideEffects: SideEffects): ExitCodeEntry =>
  Object.freeze({ name, description, retryable, sideEffects });

/** Defaults for every code; a command's own entry overrides one. */
export const STANDARD_EXIT_CODES: Readonly<Record<ProcessExitCode, ExitCodeEntry>> = Object.freeze({
  [ExitCode.SUCCESS]: entry('SUCCESS', 'The operation completed as intended', false, SideEffects.Complete),
  [ExitCode.GENERAL_ERROR]: entry(
    'GENERAL_ERROR', 'An unexpected error stopped the command; state is unknown', false, SideEffects.Partial,
  ),
  [ExitCode.ARG_ERROR]: entry('ARG_ERROR', 'Arguments failed validation; nothing was changed', false, SideEffects.None),
  [ExitCode.PARTIAL_FAILURE]: entry(
    'PARTIAL_FAILURE', 'Some units of work succeeded and others failed', false, SideEffects.Partial,
  ),
  [ExitCode.PRECONDITION]: entry(
    'PRECONDITION', 'A precondition does not hold; nothing was changed', false, SideEffects.None,
  ),
  [ExitCode.NOT_FOUND]: entry(
    'NOT_FOUND', 'A named resource does not exist; nothing was changed', false, SideEffects.None,
  ),
  [ExitCode.CONFLICT]: entry(
    'CONFLICT', 'The request conflicts with existing state; nothing was changed', false, SideEffects.None,
  ),
  [ExitCode.PERMISSION_DENIED]: entry(
    'PERMISSION_DENIED', 'Access was denied; nothing was changed', false, SideEffects.None,
  ),
  [ExitCode.AUTH_REQUIRED]: entry(
    'AUTH_REQUIRED', 'Credentials are missing or invalid; nothing was changed', false, SideEffects.None,
  ),
  [ExitCode.PAYMENT_REQUIRED]: entry(
    'PAYMENT_REQUIRED', 'Payment is required; nothing was changed', false, SideEffects.None,
  ),
  [ExitCode.TIMEOUT]: entry(
    'TIMEOUT', 'A time limit stopped the work; progress since the last checkpoint is gone', false, SideEffects.Partial,
  ),
  [ExitCode.RATE_LIMITED]: entry(
    'RATE_LIMITED', 'A rate limit refused the request; nothing was changed', true, SideEffects.None,
  ),
  [ExitCode.UNAVAILABLE]: entry(
    'UNAVAILABLE', 'A resource is busy or unavailable; nothing was changed', true, SideEffects.None,
  ),
  [ExitCode.REDIRECTED]: entry(
    'REDIRECTED', 'The command moved; run the command its redirect names', false, SideEffects.None,
  ),
  [ExitCode.INCOMPLETE]: entry(
    'INCOMPLETE', 'The work is not finished and not lost; run its continue_command', true, SideEffects.None,
  ),
  [SignalExitCode.SIGINT]: entry('SIGINT', 'Interrupted by SIGINT at a safe point', false, SideEffects.Partial),
  [SignalExitCode.SIGTERM]: entry('SIGTERM', 'Terminated by SIGTERM at a safe point', false, SideEffects.Partial),
});

/** Codes 0–14, the ones a command may declare itself. */
export function isCommandExitCode(code: number): code is ExitCode {
  return Number.isInteger(code) && code >= ExitCode.SUCCESS && code <= ExitCode.INCOMPLETE;
}
