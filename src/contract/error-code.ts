import { ExitCode, type ExitCode as ExitCodeValue } from './exit-code.js';

/**
 * Stable error codes: programs match these, people read messages. Each code
 * maps to exactly one exit code (below), so the mapping lives in one place.
 * Every code is listed in the README's table (a test keeps that true).
 */
export const ErrorCode = {
  // validation (exit 2)
  ArgError: 'ARG_ERROR',
  // framework
  InternalError: 'INTERNAL_ERROR',
  RegistrationRefused: 'REGISTRATION_REFUSED',
  UndeclaredExitCode: 'UNDECLARED_EXIT_CODE',
  ProgressDecreased: 'PROGRESS_DECREASED',
  Incomplete: 'INCOMPLETE',
  Cancelled: 'CANCELLED',
  Timeout: 'TIMEOUT',
  Stalled: 'STALLED',
  JobLost: 'JOB_LOST',
  JobNotFound: 'JOB_NOT_FOUND',
  StateDirUnusable: 'STATE_DIR_UNUSABLE',
  NoSpace: 'NO_SPACE',
  // inputs
  FileNotFound: 'FILE_NOT_FOUND',
  NotAFile: 'NOT_A_FILE',
  FileUnreadable: 'FILE_UNREADABLE',
  NotCsv: 'NOT_CSV',
  EmptyInput: 'EMPTY_INPUT',
  MalformedCsv: 'MALFORMED_CSV',
  RecordTooLong: 'RECORD_TOO_LONG',
  PartialFailure: 'PARTIAL_FAILURE',
  WorkerFailed: 'WORKER_FAILED',
  // stores
  DatabaseLocked: 'DATABASE_LOCKED',
  IdempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  TableNotFound: 'TABLE_NOT_FOUND',
  TableUnreadable: 'TABLE_UNREADABLE',
  ColumnsMismatch: 'COLUMNS_MISMATCH',
  KeyColumnMissing: 'KEY_COLUMN_MISSING',
  InputChanged: 'INPUT_CHANGED',
  InputTruncated: 'INPUT_TRUNCATED',
  InputReplaced: 'INPUT_REPLACED',
  InputRequired: 'INPUT_REQUIRED',
  StdinTooLarge: 'STDIN_TOO_LARGE',
  // outputs
  OutputNotRegularFile: 'OUTPUT_NOT_REGULAR_FILE',
  OutputNotWritable: 'OUTPUT_NOT_WRITABLE',
  OutputFolderNotFound: 'OUTPUT_FOLDER_NOT_FOUND',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The one exit code each error code is emitted under. */
export const EXIT_CODE_OF: Readonly<Record<ErrorCode, ExitCodeValue>> = Object.freeze({
  [ErrorCode.ArgError]: ExitCode.ARG_ERROR,
  [ErrorCode.InternalError]: ExitCode.GENERAL_ERROR,
  [ErrorCode.RegistrationRefused]: ExitCode.GENERAL_ERROR,
  [ErrorCode.UndeclaredExitCode]: ExitCode.GENERAL_ERROR,
  [ErrorCode.ProgressDecreased]: ExitCode.GENERAL_ERROR,
  [ErrorCode.Incomplete]: ExitCode.INCOMPLETE,
  [ErrorCode.Cancelled]: ExitCode.GENERAL_ERROR, // the signal handlers use 130/143 instead
  [ErrorCode.Timeout]: ExitCode.TIMEOUT,
  [ErrorCode.Stalled]: ExitCode.TIMEOUT,
  [ErrorCode.JobLost]: ExitCode.GENERAL_ERROR,
  [ErrorCode.JobNotFound]: ExitCode.NOT_FOUND,
  [ErrorCode.StateDirUnusable]: ExitCode.PRECONDITION,
  [ErrorCode.NoSpace]: ExitCode.UNAVAILABLE,
  [ErrorCode.FileNotFound]: ExitCode.NOT_FOUND,
  [ErrorCode.NotAFile]: ExitCode.PRECONDITION,
  [ErrorCode.FileUnreadable]: ExitCode.PERMISSION_DENIED,
  [ErrorCode.NotCsv]: ExitCode.PRECONDITION,
  [ErrorCode.EmptyInput]: ExitCode.PRECONDITION,
  [ErrorCode.MalformedCsv]: ExitCode.PRECONDITION,
  [ErrorCode.RecordTooLong]: ExitCode.PRECONDITION,
  [ErrorCode.PartialFailure]: ExitCode.PARTIAL_FAILURE,
  [ErrorCode.WorkerFailed]: ExitCode.GENERAL_ERROR,
  [ErrorCode.DatabaseLocked]: ExitCode.UNAVAILABLE,
  [ErrorCode.IdempotencyKeyReused]: ExitCode.CONFLICT,
  [ErrorCode.TableNotFound]: ExitCode.NOT_FOUND,
  [ErrorCode.TableUnreadable]: ExitCode.PRECONDITION,
  [ErrorCode.ColumnsMismatch]: ExitCode.CONFLICT,
  [ErrorCode.KeyColumnMissing]: ExitCode.PRECONDITION,
  [ErrorCode.InputChanged]: ExitCode.CONFLICT,
  [ErrorCode.InputTruncated]: ExitCode.PRECONDITION,
  [ErrorCode.InputReplaced]: ExitCode.PRECONDITION,
  [ErrorCode.InputRequired]: ExitCode.PRECONDITION,
  [ErrorCode.StdinTooLarge]: ExitCode.ARG_ERROR,
  [ErrorCode.OutputNotRegularFile]: ExitCode.PRECONDITION,
  [ErrorCode.OutputNotWritable]: ExitCode.PERMISSION_DENIED,
  [ErrorCode.OutputFolderNotFound]: ExitCode.NOT_FOUND,
});
