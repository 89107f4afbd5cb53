import { ExitCode } from '../../contract/exit-code.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { defineCommand } from '../../runtime/authoring/define-command.js';
import { chunkSizeFlag, WORKERS_FLAG } from '../engine-flags.js';
import { STDIN_PATH } from '../../engine/input-file.js';
import { OnBadRow } from './on-bad-row.js';
import { renderImportText } from './import-text.js';
import { IMPORT_MAP } from './import-map-module.js';
import { IMPORT_SCHEMA } from './import-schema.js';

export { OnBadRow } from './on-bad-row.js';

export const importCommand = defineCommand({
  name: 'import',
  outputSchema: IMPORT_SCHEMA,
  description: 'Import a CSV file into a LevelDB table, SQLite, DuckDB or PostgreSQL exactly once: resumable, '
    + 'idempotent, with every bad row named',
  dangerLevel: DangerLevel.Mutating,
  maps: { rows: IMPORT_MAP },
  // Repeats are answered from the table's own record of the run (prior-run.ts), even from another state folder.
  keyedReplay: false,
  positionals: [
    { name: 'file', type: 'string', description: 'The CSV file (a header row, then records); - reads stdin' },
  ],
  stdin: { mode: 'lines', when: (positionals) => positionals['file'] === STDIN_PATH },
  flags: {
    into: {
      type: 'string',
      required: true,
      description: 'Where the rows go: a LevelDB folder (created when absent), or a typed table of sqlite:<file>, '
        + 'duckdb:<file> or postgres://…',
    },
    table: {
      type: 'string',
      description: 'The table of a database --into (default: the file\'s name up to its first dot)',
    },
    schema: {
      type: 'string',
      description: 'Column types of a new database table, as name:type,… (integer, decimal, boolean, date, '
        + 'timestamp, text); the others are inferred from the file\'s first 4 MiB',
    },
    key: {
      type: 'string',
      description: 'Upsert by this column instead of appending (rows keep the id their key first got)',
    },
    'dry-run': {
      type: 'boolean',
      description: 'Read and check the whole file and report what would be written; write nothing',
    },
    'on-bad-row': {
      type: 'enum',
      enumValues: Object.values(OnBadRow),
      default: OnBadRow.Skip,
      description: 'skip: report malformed rows and import the rest; fail: stop at the first one',
    },
    'no-sync': {
      type: 'boolean',
      identity: false,
      description: 'Commit without fsync: faster; a kill still loses nothing, a power loss may lose the last commits',
    },
    workers: { ...WORKERS_FLAG, description: 'Worker threads (default: one per core but one, which the writes need)' },
    'chunk-size': chunkSizeFlag('Bytes per chunk, one committed batch each (default: 4MiB; 32MiB into DuckDB)'),
  },
  interruption: { detach: false, resume: true },
  exitCodes: {
    [ExitCode.SUCCESS]: {
      description: 'Every row was imported (or the run is replayed unchanged)',
      retryable: false,
      sideEffects: SideEffects.Complete,
    },
    [ExitCode.PARTIAL_FAILURE]: {
      description: 'Some rows were imported; the answer names the others and why',
      retryable: false,
      sideEffects: SideEffects.Partial,
    },
    [ExitCode.PRECONDITION]: {
      description: 'The input is not a regular CSV file or lacks the --key column, or a database client is missing; '
        + 'nothing written',
      retryable: false,
      sideEffects: SideEffects.None,
    },
    [ExitCode.NOT_FOUND]: {
      description: 'The input file does not exist (an http:// or https:// server answered 404); nothing was written',
      retryable: false,
      sideEffects: SideEffects.None,
    },
    [ExitCode.CONFLICT]: {
      description: 'The key was used with other input, the table has other types (SCHEMA_MISMATCH), '
        + 'or a remote input changed',
      retryable: false,
      sideEffects: SideEffects.None,
    },
    [ExitCode.PERMISSION_DENIED]: {
      description: 'The input cannot be read (a server answered 403); nothing was written',
      retryable: false,
      sideEffects: SideEffects.None,
    },
    [ExitCode.AUTH_REQUIRED]: {
      description: 'The PostgreSQL server refused the login, or an input\'s server wants credentials (401)',
      retryable: false,
      sideEffects: SideEffects.None,
    },
    [ExitCode.RATE_LIMITED]: {
      description: 'An input\'s server kept answering 429 through every retry; committed rows stay; call again',
      retryable: false,
      sideEffects: SideEffects.Partial,
    },
    [ExitCode.UNAVAILABLE]: {
      description:
        'The table is held, a disk is full, or the database or the input\'s server is out of reach; committed rows '
        + 'stay',
      retryable: false,
      sideEffects: SideEffects.Partial,
    },
    [ExitCode.INCOMPLETE]: {
      description: 'Paused at a committed checkpoint; run its continue_command',
      retryable: false,
      sideEffects: SideEffects.Partial,
    },
  },
  examples: [{
    description: 'Import a file, then export it back',
    command: 'stint import rows.csv --into rows.db && stint export rows.db --output copy.csv',
  }],
  text: (data) => renderImportText(data as Parameters<typeof renderImportText>[0]),
  async run(input, ctx) {
    const { runImport } = await import('./import-run.js');
    return runImport(input, ctx);
  },
});
