import { ExitCode, type ExitCode as ExitCodeValue } from './exit-code.js';

/**
 * The framework's own error codes: the ones stint raises whatever the program
 * (arguments, jobs, budget, state folder, input files, stdin, workers). Each
 * maps to exactly one exit code (below). A program declares its own codes with
 * defineErrorCodes; stint's commands do so in src/commands/stint-codes.ts.
 * Every code is listed in docs/output-contract.md's table (a test keeps that true).
 */
export const ErrorCode = {
  // validation (exit 2)
  ArgError: 'ARG_ERROR',
  ConfirmationRequired: 'CONFIRMATION_REQUIRED',
  // framework
  InternalError: 'INTERNAL_ERROR',
  RegistrationRefused: 'REGISTRATION_REFUSED',
  UndeclaredExitCode: 'UNDECLARED_EXIT_CODE',
  UndeclaredErrorCode: 'UNDECLARED_ERROR_CODE',
  UndeclaredWarningCode: 'UNDECLARED_WARNING_CODE',
  ProgressDecreased: 'PROGRESS_DECREASED',
  Incomplete: 'INCOMPLETE',
  Cancelled: 'CANCELLED',
  Timeout: 'TIMEOUT',
  Stalled: 'STALLED',
  JobLost: 'JOB_LOST',
  JobNotFound: 'JOB_NOT_FOUND',
  StateDirUnusable: 'STATE_DIR_UNUSABLE',
  StateDirUnsafe: 'STATE_DIR_UNSAFE',
  JobRecordInvalid: 'JOB_RECORD_INVALID',
  NoSpace: 'NO_SPACE',
  // inputs
  FileNotFound: 'FILE_NOT_FOUND',
  NotAFile: 'NOT_A_FILE',
  FileUnreadable: 'FILE_UNREADABLE',
  RecordTooLong: 'RECORD_TOO_LONG',
  InputDamaged: 'INPUT_DAMAGED',
  PartialFailure: 'PARTIAL_FAILURE',
  WorkerFailed: 'WORKER_FAILED',
  // remote inputs (http://, https://, s3://)
  RemoteThrottled: 'REMOTE_THROTTLED',
  RemoteUnavailable: 'REMOTE_UNAVAILABLE',
  RangesUnsupported: 'RANGES_UNSUPPORTED',
  RemoteClientMissing: 'REMOTE_CLIENT_MISSING',
  // a queue of workers (--queue)
  QueueUnreachable: 'QUEUE_UNREACHABLE',
  InputNotShared: 'INPUT_NOT_SHARED',
  JobRefused: 'JOB_REFUSED',
  AuthRequired: 'AUTH_REQUIRED',
  PermissionDenied: 'PERMISSION_DENIED',
  QueueClientMissing: 'QUEUE_CLIENT_MISSING',
  // stores and resumption
  DatabaseLocked: 'DATABASE_LOCKED',
  IdempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  InputChanged: 'INPUT_CHANGED',
  InputTruncated: 'INPUT_TRUNCATED',
  InputReplaced: 'INPUT_REPLACED',
  InputRequired: 'INPUT_REQUIRED',
  StdinTooLarge: 'STDIN_TOO_LARGE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The one exit code each error code is emitted under. */
export const EXIT_CODE_OF: Readonly<Record<ErrorCode, ExitCodeValue>> = Object.freeze({
  [ErrorCode.ArgError]: ExitCode.ARG_ERROR,
  [ErrorCode.ConfirmationRequired]: ExitCode.ARG_ERROR,
  [ErrorCode.InternalError]: ExitCode.GENERAL_ERROR,
  [ErrorCode.RegistrationRefused]: ExitCode.GENERAL_ERROR,
  [ErrorCode.UndeclaredExitCode]: ExitCode.GENERAL_ERROR,
  [ErrorCode.UndeclaredErrorCode]: ExitCode.GENERAL_ERROR,
  [ErrorCode.UndeclaredWarningCode]: ExitCode.GENERAL_ERROR,
  [ErrorCode.ProgressDecreased]: ExitCode.GENERAL_ERROR,
  [ErrorCode.Incomplete]: ExitCode.INCOMPLETE,
  [ErrorCode.Cancelled]: ExitCode.GENERAL_ERROR, // the signal handlers use 130/143 instead
  [ErrorCode.Timeout]: ExitCode.TIMEOUT,
  [ErrorCode.Stalled]: ExitCode.TIMEOUT,
  [ErrorCode.JobLost]: ExitCode.GENERAL_ERROR,
  [ErrorCode.JobNotFound]: ExitCode.NOT_FOUND,
  [ErrorCode.StateDirUnusable]: ExitCode.PRECONDITION,
  // Like an unusable folder, a precondition of the machine: the caller may write there, we decline to.
  [ErrorCode.StateDirUnsafe]: ExitCode.PRECONDITION,
  [ErrorCode.JobRecordInvalid]: ExitCode.PRECONDITION,
  [ErrorCode.NoSpace]: ExitCode.UNAVAILABLE,
  [ErrorCode.FileNotFound]: ExitCode.NOT_FOUND,
  [ErrorCode.NotAFile]: ExitCode.PRECONDITION,
  [ErrorCode.FileUnreadable]: ExitCode.PERMISSION_DENIED,
  [ErrorCode.RecordTooLong]: ExitCode.PRECONDITION,
  [ErrorCode.PartialFailure]: ExitCode.PARTIAL_FAILURE,
  [ErrorCode.WorkerFailed]: ExitCode.GENERAL_ERROR,
  [ErrorCode.RemoteThrottled]: ExitCode.RATE_LIMITED,
  [ErrorCode.RemoteUnavailable]: ExitCode.UNAVAILABLE,
  [ErrorCode.RangesUnsupported]: ExitCode.PRECONDITION,
  // Like a queue's missing client: the same call works once it is installed.
  [ErrorCode.RemoteClientMissing]: ExitCode.PRECONDITION,
  [ErrorCode.QueueUnreachable]: ExitCode.UNAVAILABLE,
  [ErrorCode.InputNotShared]: ExitCode.PRECONDITION,
  [ErrorCode.JobRefused]: ExitCode.GENERAL_ERROR,
  [ErrorCode.AuthRequired]: ExitCode.AUTH_REQUIRED,
  [ErrorCode.PermissionDenied]: ExitCode.PERMISSION_DENIED,
  // Like an unusable state folder, a precondition of the machine: the same call works once they are installed.
  [ErrorCode.QueueClientMissing]: ExitCode.PRECONDITION,
  [ErrorCode.DatabaseLocked]: ExitCode.UNAVAILABLE,
  [ErrorCode.IdempotencyKeyReused]: ExitCode.CONFLICT,
  [ErrorCode.InputChanged]: ExitCode.CONFLICT,
  [ErrorCode.InputTruncated]: ExitCode.PRECONDITION,
  [ErrorCode.InputDamaged]: ExitCode.PRECONDITION,
  [ErrorCode.InputReplaced]: ExitCode.PRECONDITION,
  [ErrorCode.InputRequired]: ExitCode.PRECONDITION,
  [ErrorCode.StdinTooLarge]: ExitCode.ARG_ERROR,
});
