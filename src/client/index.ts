/**
 * `stint/client`: for callers of a program built on stint. The continuation loop, and the types of the
 * envelope a call answers with, to parse it (and `Coverage`, to tell a partial answer from a complete one).
 * @packageDocumentation
 */
export { continueUntilDone, type LoopOptions, type LoopResult, type RunCommand } from './continuation-loop.js';
export type { Envelope, ErrorDetail, FieldError, ResponseMeta, WarningDetail } from '../contract/envelope.js';
export type { IncompleteData, Progress } from '../contract/incomplete.js';
export type { Outcome, Established, Unresolved } from '../contract/outcome.js';
export { ExitCode } from '../contract/exit-code.js';
export { IncompleteState } from '../contract/vocabulary/job-state.js';
export { RunStatus } from '../contract/vocabulary/run-status.js';
export { StopLimit } from '../contract/vocabulary/stop-limit.js';
export { Coverage } from '../contract/vocabulary/coverage.js';
