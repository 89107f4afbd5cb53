/**
 * `stint`: the authoring API. Declare commands, build a program, run it as the process, process big
 * inputs on every core, and the vocabularies a declaration or a handler uses. The worker side of a map
 * is `stint/worker`; a caller's continuation loop is `stint/client`; the wire contract is `stint/contract`.
 * @packageDocumentation
 */

// Declaring commands and programs.
export { defineCommand } from './runtime/authoring/define-command.js';
export type { Program, ProgramSpec } from './program/program.js';
// With the `worker` command, which runs the chunks of calls given --queue.
export { createProgram } from './program/program-with-worker.js';
export type { ProgramIdentity } from './runtime/cli/help-text.js';
export type {
  CommandSpec, CommandInput, CommandResult, FlagSpec, FlagType, FlagValues, PositionalSpec, PositionalType,
  PositionalValues, Interruption, StdinSpec, FrameworkOptions,
} from './runtime/authoring/command-spec.js';
export type { ExitCodeEntry } from './contract/exit-code.js';

// Running a program as this process.
export { runCli } from './bin/run-cli.js';
export { installSignalRouter } from './bin/signal-router.js';
export type { Host, Cancel } from './runtime/authoring/host.js';

// What a handler sees and returns.
export type { CommandContext, Restored, StreamOut } from './runtime/authoring/command-spec.js';
export type { Envelope, ErrorDetail, FieldError, WarningDetail } from './contract/envelope.js';
export type { Progress } from './contract/incomplete.js';
export { outcomeOf, type Outcome, type Established, type Unresolved } from './contract/outcome.js';
// The shape of a command's data, for the manifest's output_schema (CommandSpec.outputSchema).
export {
  anyOf, arrayOf, booleanSchema, constSchema, countSchema, describedOnly, mapOf, memberOf, nullable, numberSchema,
  objectOf, stringSchema, tupleOf, type DataSchema, type ObjectParts,
} from './contract/data-schema.js';
export { outcomeSchema, type OutcomeParts } from './contract/outcome-schema.js';
export { StintError } from './contract/stint-error.js';
export {
  defineErrorCodes, defineWarningCodes,
  type ErrorCodeDeclaration, type WarningCodeDeclaration, type DeclaredCodes, type DeclaredCodeSet,
} from './contract/declared-codes.js';

// Big inputs on every core: a worker-side map (see `stint/worker`) and a main-side fold.
export { processFile, type FileWork, type FileOutcome } from './engine/process-file.js';
export { openWorkerPool, type WorkerPool } from './engine/chunk-pool.js';
export {
  processFiles, type FilesWork, type FilesOutcome, type FileStart, type FileEnd, type ReadableFile,
} from './engine/process-files.js';
export { processStdin, type StdinWork } from './engine/process-stdin.js';
export {
  processSource, type Source, type SourceChunk, type SourceWork, type SourceOutcome,
} from './engine/process-source.js';
export type { FoldOver } from './engine/fold-loop.js';
export type { Sink, SinkMark } from './engine/sinks/sink.js';
export {
  levelSink, levelWrites, type LevelBatch, type LevelWrites, type LevelSinkSpec,
} from './engine/sinks/level-sink.js';
export { MARKS_TABLE, type SqlSinkSpec } from './engine/sinks/sql-sink.js';
export { sqliteSink, type SqliteConnection } from './engine/sinks/sqlite-sink.js';
export { postgresSink, type PostgresConnection } from './engine/sinks/postgres-sink.js';
export { duckdbSink, type DuckDbConnection } from './engine/sinks/duckdb-sink.js';
export type { Fold, FoldChunk, Watermark } from './engine/chunked-run.js';
export type { WireError } from './engine/worker/worker-protocol.js';
export { Framing } from './engine/worker/framing.js';

// The vocabularies a declaration or a handler uses, by name.
export { ExitCode } from './contract/exit-code.js';
export { ErrorCode } from './contract/error-code.js';
export { WarningCode } from './contract/warning-code.js';
export { DangerLevel } from './contract/vocabulary/danger-level.js';
export { SideEffects } from './contract/vocabulary/side-effects.js';
export { ProgressUnit } from './contract/vocabulary/progress-unit.js';
export { Cause } from './contract/vocabulary/cause.js';
export { Phase } from './contract/vocabulary/phase.js';
