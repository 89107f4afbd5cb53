import type { Envelope } from '../../../contract/envelope.js';
import { ErrorCode } from '../../../contract/error-code.js';
import { ExitCode, STANDARD_EXIT_CODES, type ExitCodeEntry } from '../../../contract/exit-code.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';
import { ArgProblem } from '../../../contract/vocabulary/arg-problem.js';
import { Phase } from '../../../contract/vocabulary/phase.js';
import { resolveBudget } from '../../../runtime/authoring/budget.js';
import type { CommandContext, CommandResult, CommandSpec, FlagSpec } from '../../../runtime/authoring/command-spec.js';
import type { JobRecord } from '../../../runtime/jobs/job-record.js';
import type { JobStore } from '../../../runtime/jobs/job-store.js';

/** What the job commands need from the program they serve. */
export interface JobCommandDeps {
  storeOf(ctx: CommandContext): JobStore;
  retryableOf(job: JobRecord): boolean;
  /** The declaration of the command a job runs (its `text` renders the job's answer as the command would). */
  commandOf(job: Pick<JobRecord, 'command'>): CommandSpec | undefined;
}

export const idArgument = [
  { name: 'id', type: 'string', description: 'The job id (the job_id of an INCOMPLETE answer, or from job list)' },
] as const;

export const budgetFlag: Record<string, FlagSpec> = {
  budget: {
    type: 'duration',
    description: 'How long to hold the caller (250ms, 5s, 2m; 0 = until the job ends).'
      + ' Default: AGENT_CALL_BUDGET_MS, else 30s; none in a terminal',
  },
};

function relayedEntry(entry: ExitCodeEntry): ExitCodeEntry {
  return { ...entry, description: `${entry.description} (the job's own exit, relayed)`.slice(0, 120) };
}

/** Every code a job can end with: these commands relay the job's own response and exit code. */
export const RELAYED: Readonly<Partial<Record<ExitCode, ExitCodeEntry>>> = Object.fromEntries(
  Object.values(ExitCode).map((code) => [code, relayedEntry(STANDARD_EXIT_CODES[code])]),
);

/**
 * The job's own response, verbatim (its meta is the job's). An answer about the lookup itself (no such job)
 * is this call's, so it gets this call's meta like any other.
 */
export function replay(envelope: Envelope): CommandResult {
  const exitCode = envelope.meta.exit_code as ExitCode;
  if (envelope.error?.code === ErrorCode.JobNotFound) return { exitCode, error: envelope.error };
  return { exitCode, verbatim: envelope };
}

/**
 * What every job command can meet in the state folder it reads: a folder it cannot use or refuses as unsafe,
 * a tampered job record (4), a full disk under it (12). Nothing is lost in either case.
 */
export const STATE_FOLDER_EXIT_CODES: Readonly<Partial<Record<ExitCode, ExitCodeEntry>>> = {
  [ExitCode.PRECONDITION]: {
    description: 'The state folder cannot be used or is refused as unsafe, or a job record there fails validation',
    retryable: false,
    sideEffects: SideEffects.None,
    errorCodes: [ErrorCode.StateDirUnusable, ErrorCode.StateDirUnsafe, ErrorCode.JobRecordInvalid],
  },
  [ExitCode.UNAVAILABLE]: {
    description: 'The disk under the state folder is full (NO_SPACE); nothing was lost; call again when there is room',
    retryable: true,
    sideEffects: SideEffects.None,
    errorCodes: [ErrorCode.NoSpace],
  },
};

export function badId(id: string): CommandResult {
  return {
    exitCode: ExitCode.ARG_ERROR,
    error: {
      code: ErrorCode.ArgError,
      message: `"${id}" is not a job id`,
      retryable: false,
      phase: Phase.Validation,
      fix_required: 'Pass the job_id an INCOMPLETE answer gave, or one `job list` shows (letters, digits and dashes)',
      errors: [{ field: 'id', reason: ArgProblem.MalformedValue, message: `"${id}" is not a job id` }],
    },
  };
}

export function noJob(id: string): CommandResult {
  return {
    exitCode: ExitCode.NOT_FOUND,
    error: {
      code: ErrorCode.JobNotFound,
      message: `no job ${id}`,
      retryable: false,
      suggestion: 'See the jobs there are with: job list',
    },
  };
}

export function budgetOf(ctx: CommandContext, flag: unknown, interactive: boolean): number | undefined {
  const budget = resolveBudget({ flagMs: flag as number | undefined, env: ctx.env, interactive });
  return budget.ok ? budget.budgetMs : undefined;
}
