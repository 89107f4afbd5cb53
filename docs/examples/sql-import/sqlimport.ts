#!/usr/bin/env node
// Imports a CSV file into Postgres (PGlite, on disk), each row exactly once, even through kill -9.
import {
  createProgram, defineCommand, processFile, runCli,
  DangerLevel, ExitCode, Framing, SideEffects, StintError, type Fold,
} from 'stint';
import { NO_ROWS, openDatabase, rowsSink, type ImportState } from './postgres-sink.js';
import { RowCode } from './row-codes.js';
import type { Rows } from './rows-map.js';

const addRows: Fold<Rows, ImportState> = async function* (chunks, state) {
  for await (const { partial } of chunks) {
    state = { imported: state.imported + partial.ids.length, rows: partial };
    yield state; // a safe point: the sink commits these rows with the watermark, then the call may stop
  }
  return state;
};

const done = { retryable: false, sideEffects: SideEffects.Complete };
const none = { retryable: false, sideEffects: SideEffects.None };
const partly = { retryable: false, sideEffects: SideEffects.Partial };

/** Its chunks' map, registered so that `worker` runs it for --queue. */
const MAP_MODULE = new URL('./rows-map.js', import.meta.url).href;

const importRows = defineCommand({
  name: 'import',
  description: 'Import a CSV file (id,name,amount) into a Postgres table, each row exactly once',
  dangerLevel: DangerLevel.Mutating,
  maps: { count: MAP_MODULE },
  positionals: [{ name: 'file', type: 'string', description: 'A header line, then id,name,amount lines' }],
  flags: {
    into: { type: 'string', required: true, description: 'The database folder (created when absent)' },
    // Not part of the run's identity: another chunk size still continues the same run.
    'chunk-size': { type: 'bytes', default: 1024 * 1024, min: 1024, identity: false, description: 'Bytes per commit' },
  },
  // Resume, but never detach: a PGlite folder is for one process at a time, and a detached job is a second one.
  interruption: { detach: false, resume: true },
  exitCodes: {
    [ExitCode.SUCCESS]: { description: 'Every row is in the table', ...done },
    [ExitCode.PRECONDITION]: {
      description: 'A bad row, not a file, or cut short mid-run', errorCodes: [RowCode.BadRow], ...partly,
    },
    [ExitCode.NOT_FOUND]: { description: 'No such file', ...none },
    [ExitCode.CONFLICT]: { description: 'The file changed since rows were committed from it', ...none },
    [ExitCode.PERMISSION_DENIED]: { description: 'The file cannot be read', ...none },
    [ExitCode.INCOMPLETE]: { description: 'Paused after a commit; run its continue_command', ...partly },
  },
  async run({ positionals, flags, options }, ctx) {
    const db = await openDatabase(flags.into);
    try {
      const result = await processFile(ctx, {
        path: positionals.file,
        framing: Framing.Lines,
        mapModule: MAP_MODULE,
        chunkSize: flags['chunk-size'],
        initial: () => ({ imported: 0, rows: NO_ROWS }),
        fold: addRows,
        // The run's idempotency key names its watermark: the identical call (or continue_command) resumes there.
        sink: rowsSink(db, options.idempotencyKey!),
      });
      // BAD_ROW from the map (or a framework code): the rows committed before that line stay.
      if (result.kind === 'failed') {
        throw new StintError(result.error.code, result.error.message, { context: { line: result.line } });
      }
      const data = { imported: result.state.imported };
      return { exitCode: result.kind === 'stopped' ? ExitCode.INCOMPLETE : ExitCode.SUCCESS, data };
    } finally {
      await db.close();
    }
  },
});

const description = 'CSV into Postgres';
await runCli(() =>
  createProgram({ name: 'sqlimport', version: '1.0.0', description, commands: [importRows], codes: [RowCode] }));
