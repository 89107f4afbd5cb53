import { ExitCode } from '../../contract/exit-code.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { defineCommand } from '../../runtime/authoring/define-command.js';
import { ExportFormat } from './export-format.js';
import { STDOUT } from './stdout-target.js';
import { stillWritten } from './written-file.js';
import { EXPORT_SCHEMA } from './export-schema.js';

export { ExportFormat } from './export-format.js';

const nothingWritten = (description: string) =>
  ({ description, retryable: false, sideEffects: SideEffects.None }) as const;

export const exportCommand = defineCommand({
  name: 'export',
  outputSchema: EXPORT_SCHEMA,
  description: 'Write a table (a LevelDB folder, or a SQLite, DuckDB or PostgreSQL table) out in order to a file '
    + 'that appears only complete (temp file, then rename), or to stdout',
  dangerLevel: DangerLevel.Mutating,
  positionals: [{
    name: 'table',
    type: 'string',
    description: 'The table: a folder, or sqlite:<file>, duckdb:<file> or postgres://… (the --into of stint import)',
  }],
  flags: {
    table: {
      type: 'string',
      description: 'The table of a database (default: its one table besides stint\'s own and the rejects)',
    },
    output: {
      type: 'string',
      required: true,
      description: 'The file to write or replace, through a symlink (a directory, FIFO, device or read-only '
        + 'file is refused); - streams the rows to stdout, and the envelope goes to stderr as its last line '
        + '(no budget applies)',
    },
    'output-format': {
      type: 'enum',
      enumValues: Object.values(ExportFormat),
      description: 'csv or ndjson; default: from the --output extension, else csv',
    },
  },
  // An export reads the table in id order on this thread: no chunks, so no --queue.
  interruption: { detach: false, resume: true, chunks: false },
  exitCodes: {
    [ExitCode.SUCCESS]: {
      description: 'The table was written to --output', retryable: false, sideEffects: SideEffects.Complete,
    },
    [ExitCode.PRECONDITION]: nothingWritten('Not a stint table, a database unusable or its client missing, or --output '
      + 'not a regular file; nothing written'),
    [ExitCode.NOT_FOUND]: nothingWritten("No table at that folder or in that database, or --output's folder does not "
      + 'exist'),
    [ExitCode.PERMISSION_DENIED]: nothingWritten('--output or its folder is not writable; it is left as it is'),
    [ExitCode.AUTH_REQUIRED]: nothingWritten('The PostgreSQL server refused the login; nothing was written'),
    [ExitCode.UNAVAILABLE]: {
      description: 'Another process holds the table, or the database is out of reach', retryable: true,
      sideEffects: SideEffects.None,
    },
    [ExitCode.INCOMPLETE]: {
      description: 'Paused: --output is untouched, a partial file waits beside it; run its continue_command',
      retryable: false,
      sideEffects: SideEffects.Partial,
    },
  },
  examples: [
    { description: 'Export a table to a file', command: 'stint export rows.db --output copy.csv' },
    {
      description: 'Stream it into another program (the envelope is the last line on stderr)',
      command: 'stint export rows.db --output - | gzip > rows.csv.gz',
    },
  ],
  streamsStdout: (flags) => flags.output === STDOUT,
  // A repeat is given the kept answer only while the file it names is still the one written.
  answerHolds: stillWritten,
  async run(input, ctx) {
    const { runExport } = await import('./export-run.js');
    return runExport(input, ctx);
  },
});
