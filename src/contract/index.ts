/**
 * `stint/contract`: the wire contract every stint program keeps, as data. Exit codes and their table,
 * the envelope and how it is built, the framework's error and warning codes, and the closed
 * vocabularies that appear on the wire.
 * @packageDocumentation
 */

// Exit codes.
export {
  ExitCode, SignalExitCode, STANDARD_EXIT_CODES, type ExitCodeEntry, type ExitCodeName, type ProcessExitCode,
} from './exit-code.js';

// The envelope and what it carries.
export {
  buildEnvelope, type Envelope, type EnvelopeParts, type ErrorDetail, type FieldError, type ResponseMeta,
  type WarningDetail,
} from './envelope.js';
export type { IncompleteData, Progress } from './incomplete.js';
export { INCOMPLETE_SCHEMA } from './incomplete-schema.js';
export { outcomeOf, type Outcome, type Established, type Unresolved } from './outcome.js';

// Error and warning codes.
export { ErrorCode, EXIT_CODE_OF } from './error-code.js';
export { WarningCode } from './warning-code.js';
export { StintError } from './stint-error.js';
export {
  defineErrorCodes, defineWarningCodes,
  type ErrorCodeDeclaration, type WarningCodeDeclaration, type DeclaredCodes, type DeclaredCodeSet,
} from './declared-codes.js';

// Vocabularies on the wire.
export { ArgProblem } from './vocabulary/arg-problem.js';
export { Cause } from './vocabulary/cause.js';
export { Coverage } from './vocabulary/coverage.js';
export { DangerLevel } from './vocabulary/danger-level.js';
export { JobState, IncompleteState } from './vocabulary/job-state.js';
export { Phase } from './vocabulary/phase.js';
export { ProgressUnit } from './vocabulary/progress-unit.js';
export { RunStatus } from './vocabulary/run-status.js';
export { SideEffects } from './vocabulary/side-effects.js';
export { StopLimit } from './vocabulary/stop-limit.js';
