import { codeTable } from '../contract/code-table.js';
import { defineErrorCodes, defineWarningCodes } from '../contract/declared-codes.js';
import { ExitCode } from '../contract/exit-code.js';

/** The error codes only stint's own commands raise, declared as any author declares theirs. */
export const StintCode = defineErrorCodes({
  NotCsv: {
    code: 'NOT_CSV', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'an input is not CSV: JSON, NDJSON, Parquet or ZIP (context.format says which), or binary',
  },
  EmptyInput: {
    code: 'EMPTY_INPUT', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'an input is empty or holds only empty lines: there is no header',
  },
  MalformedCsv: {
    code: 'MALFORMED_CSV', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'an input is not valid CSV; context.line says where',
  },
  ColumnNotFound: {
    code: 'COLUMN_NOT_FOUND', exitCode: ExitCode.ARG_ERROR, retryable: false,
    description: 'analyze --columns names a column the file\'s header lacks; the suggestion names the closest',
  },
  TableNotFound: {
    code: 'TABLE_NOT_FOUND', exitCode: ExitCode.NOT_FOUND, retryable: false,
    description: 'export of a folder that holds no table',
  },
  TableUnreadable: {
    code: 'TABLE_UNREADABLE', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'the folder is not a stint table, or LevelDB cannot open it; or a database cannot be used',
  },
  ColumnsMismatch: {
    code: 'COLUMNS_MISMATCH', exitCode: ExitCode.CONFLICT, retryable: false,
    description: 'an import into a table whose columns differ from the file\'s header',
  },
  SchemaMismatch: {
    code: 'SCHEMA_MISMATCH', exitCode: ExitCode.CONFLICT, retryable: false,
    description: 'an import into a database table whose columns or types cannot hold the file\'s; no row was written',
  },
  BadSchema: {
    code: 'BAD_SCHEMA', exitCode: ExitCode.ARG_ERROR, retryable: false,
    description: 'import --schema names a column the header lacks or a type stint does not know',
  },
  UnusableHeader: {
    code: 'UNUSABLE_HEADER', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'a database table needs distinct, non-empty column names and the header lacks them',
  },
  DatabaseUnreachable: {
    code: 'DATABASE_UNREACHABLE', exitCode: ExitCode.UNAVAILABLE, retryable: true,
    description: 'the PostgreSQL server of --into cannot be reached, or went away mid-run; what it committed stays',
  },
  DriverMissing: {
    code: 'DRIVER_MISSING', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'the database client --into needs is not installed; the message names the npm package',
  },
  IntoNotSupported: {
    code: 'INTO_NOT_SUPPORTED', exitCode: ExitCode.ARG_ERROR, retryable: false,
    description: 'import --into names a kind of database stint does not write yet, or --table a LevelDB folder',
  },
  KeyColumnMissing: {
    code: 'KEY_COLUMN_MISSING', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: '--key names a column the header lacks',
  },
  OutputNotRegularFile: {
    code: 'OUTPUT_NOT_REGULAR_FILE', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'export --output names something other than a regular file',
  },
  OutputNotWritable: {
    code: 'OUTPUT_NOT_WRITABLE', exitCode: ExitCode.PERMISSION_DENIED, retryable: false,
    description: 'export --output is read-only, or its folder is not writable',
  },
  OutputFolderNotFound: {
    code: 'OUTPUT_FOLDER_NOT_FOUND', exitCode: ExitCode.NOT_FOUND, retryable: false,
    description: 'the folder export --output would be in does not exist',
  },
  NotAnEnvelope: {
    code: 'NOT_AN_ENVELOPE', exitCode: ExitCode.GENERAL_ERROR, retryable: false,
    description: 'a command stint follow ran answered something other than one envelope of this contract',
  },
  BenchTargetFailed: {
    code: 'BENCH_TARGET_FAILED', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'a command `stint bench resume` measures answered an error; context holds its exit and error',
  },
  BenchNotResumable: {
    code: 'BENCH_NOT_RESUMABLE', exitCode: ExitCode.PRECONDITION, retryable: false,
    description: 'a command `stint bench resume` measures reported no progress with a total,'
      + ' did not stop resumably on SIGINT, or finished before the offset (its input is too small)',
  },
});
export type StintCode = (typeof StintCode)[Exclude<keyof typeof StintCode, symbol>];

/** The warning codes only stint's own commands emit. */
export const StintWarning = defineWarningCodes({
  InvalidUtf8Replaced: {
    code: 'INVALID_UTF8_REPLACED',
    description: 'bytes that are not UTF-8 were read as U+FFFD',
  },
  RaggedRows: {
    code: 'RAGGED_ROWS',
    description: 'some rows have a field count unlike the header\'s and were left out',
  },
  DuplicateColumnNames: {
    code: 'DUPLICATE_COLUMN_NAMES',
    description: 'the header names a column twice',
  },
  NumberOutOfRange: {
    code: 'NUMBER_OUT_OF_RANGE',
    description: 'number-shaped values beyond the range of doubles (such as 1e400 or 1e-400) were read as strings',
  },
  WideFileBasicStats: {
    code: 'WIDE_FILE_BASIC_STATS',
    description: 'analyze without --stats gave a wide file\'s columns the basic statistics only;'
      + ' --stats all gives every one',
  },
});
export type StintWarning = (typeof StintWarning)[Exclude<keyof typeof StintWarning, symbol>];

/** Every code stint's program declares, for its createProgram. */
export const STINT_CODE_SETS = [StintCode, StintWarning] as const;

/** The codes stint's commands may emit, framework's included: how a command learns a failure's exit code. */
export const STINT_CODES = codeTable(STINT_CODE_SETS);
