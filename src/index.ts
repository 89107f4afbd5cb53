// The public API of stint, for authors of programs built on it.
export { ExitCode, SignalExitCode, STANDARD_EXIT_CODES, type ExitCodeEntry } from './contract/exit-code.js';
export { ErrorCode } from './contract/error-code.js';
export { WarningCode } from './contract/warning-code.js';
export { StintError } from './contract/stint-error.js';
export {
  defineErrorCodes, defineWarningCodes,
  type ErrorCodeDeclaration, type WarningCodeDeclaration, type DeclaredCodes, type DeclaredCodeSet,
} from './contract/declared-codes.js';
export { buildEnvelope, type Envelope, type ErrorDetail, type WarningDetail } from './contract/envelope.js';
export { outcomeOf, type Outcome, type Established, type Unresolved } from './contract/outcome.js';
export type { IncompleteData, Progress } from './contract/incomplete.js';
export { JobState, IncompleteState } from './contract/vocabulary/job-state.js';
export { RunStatus } from './contract/vocabulary/run-status.js';
export { TaskStatus } from './contract/vocabulary/task-status.js';
export { StopLimit } from './contract/vocabulary/stop-limit.js';
export { Coverage } from './contract/vocabulary/coverage.js';
export { Cause } from './contract/vocabulary/cause.js';
export { DangerLevel } from './contract/vocabulary/danger-level.js';
export { SideEffects } from './contract/vocabulary/side-effects.js';
export { ProgressUnit } from './contract/vocabulary/progress-unit.js';
export { defineCommand } from './runtime/program/define-command.js';
export type { CommandSpec, CommandContext, CommandResult, FlagSpec, PositionalSpec, Interruption } from './runtime/program/command-spec.js';
export { createProgram, type Program, type ProgramSpec } from './runtime/program/program.js';
export { runCli } from './bin/run-cli.js';
export { installSignalRouter } from './bin/signal-router.js';
export { processFile, type FileWork, type FileOutcome } from './engine/process-file.js';
export { runChunked, type Fold, type FoldChunk, type Watermark, type ChunkedOutcome } from './engine/chunked-run.js';
export { openChunkPool, defaultWorkerCount, type ChunkPool } from './engine/chunk-pool.js';
export { Framing } from './engine/framing.js';
export type { ChunkInfo, ChunkMap, WindowInfo, WindowMap, WindowResult } from './engine/worker-protocol.js';
export { continueUntilDone, type LoopOptions, type LoopResult, type RunCommand } from './client/continuation-loop.js';
