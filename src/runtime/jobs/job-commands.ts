import type { Envelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode, STANDARD_EXIT_CODES, type ExitCodeEntry } from '../../contract/exit-code.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { ArgProblem } from '../../contract/vocabulary/arg-problem.js';
import { JobState, isTerminal } from '../../contract/vocabulary/job-state.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { resolveBudget } from './budget.js';
import type { CommandContext, CommandResult, CommandSpec, FlagSpec } from '../program/command-spec.js';
import type { ProgramContext } from '../program/invocation.js';
import { isJobId } from './job-id.js';
import { cancelIdleJob, settleJob } from './job-outcomes.js';
import type { JobRecord } from './job-record.js';
import { JobStore } from './job-store.js';
import { waitOnJob } from './job-wait.js';
import { jobWatchCommand } from './job-watch-command.js';
import { stateDirPath } from '../storage/state-dir.js';

const idArgument = [
  { name: 'id', type: 'string', description: 'The job id (data.job_id of an INCOMPLETE response)' },
] as const;
const budgetFlag: Record<string, FlagSpec> = {
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
const RELAYED: Readonly<Partial<Record<ExitCode, ExitCodeEntry>>> = Object.fromEntries(
  Object.values(ExitCode).map((code) => [code, relayedEntry(STANDARD_EXIT_CODES[code])]),
);

/** Ended without finishing and without anyone running it: a cancel still has a checkpoint to discard. */
function endedUnfinished(state: JobState): boolean {
  return state === JobState.Lost || state === JobState.Stalled;
}

function replay(envelope: Envelope): CommandResult {
  return { exitCode: envelope.meta.exit_code as ExitCode, verbatim: envelope };
}

function badId(id: string): CommandResult {
  return {
    exitCode: ExitCode.ARG_ERROR,
    error: {
      code: ErrorCode.ArgError,
      message: `"${id}" is not a job id`,
      retryable: false,
      phase: Phase.Validation,
      fix_required: 'Pass data.job_id from an INCOMPLETE response (letters, digits and dashes)',
      errors: [{ field: 'id', reason: ArgProblem.MalformedValue, message: `"${id}" is not a job id` }],
    },
  };
}

function budgetOf(ctx: CommandContext, flag: unknown, interactive: boolean): number | undefined {
  const budget = resolveBudget({ flagMs: flag as number | undefined, env: ctx.env, interactive });
  return budget.ok ? budget.budgetMs : undefined;
}

/** What the job commands need from the program they serve. */
interface JobCommandDeps {
  storeOf(ctx: CommandContext): JobStore;
  retryableOf(job: JobRecord): boolean;
}

function jobWaitCommand({ storeOf, retryableOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job wait',
    description: 'Hold up to the budget for a job: its own response and exit code once it ends,'
      + ' else 14 with fresh progress',
    dangerLevel: DangerLevel.Safe,
    positionals: idArgument,
    flags: budgetFlag,
    exitCodes: RELAYED,
    async run({ positionals, flags }, ctx) {
      const id = positionals['id'] as string;
      if (!isJobId(id)) return badId(id);
      const budgetMs = budgetOf(ctx, flags['budget'], ctx.interactive);
      const started = ctx.now();
      return replay(await waitOnJob({
        store: storeOf(ctx),
        now: () => ctx.now(),
        id,
        started,
        until: budgetMs ? started + budgetMs : undefined,
        budgetMs,
        retryableOf,
      }));
    },
  };
}

function jobStatusCommand({ storeOf, retryableOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job status',
    description: 'Answer at once: 14 with progress while a job runs or waits, its final response once it ended',
    dangerLevel: DangerLevel.Safe,
    positionals: idArgument,
    exitCodes: RELAYED,
    async run({ positionals }, ctx) {
      const id = positionals['id'] as string;
      if (!isJobId(id)) return badId(id);
      const now = ctx.now();
      return replay(await waitOnJob({
        store: storeOf(ctx), now: () => ctx.now(), id, started: now, until: now, budgetMs: undefined, retryableOf,
      }));
    },
  };
}

function jobCancelCommand({ storeOf, retryableOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job cancel',
    description: 'Stop a job at its next safe point and discard its checkpoint;'
      + ' the identical invocation then starts over',
    dangerLevel: DangerLevel.Destructive,
    idempotencyKey: false,
    positionals: idArgument,
    flags: budgetFlag,
    exitCodes: {
      [ExitCode.SUCCESS]: {
        description: 'The job is stopped (or had already ended); its checkpoint is gone',
        retryable: false,
        sideEffects: SideEffects.Complete,
      },
      [ExitCode.NOT_FOUND]: { description: 'No job has that id', retryable: false, sideEffects: SideEffects.None },
      [ExitCode.INCOMPLETE]: {
        description: 'The job has not reached a safe point within the budget; it stops there',
        retryable: true,
        sideEffects: SideEffects.None,
      },
    },
    async run({ positionals, flags }, ctx) {
      const id = positionals['id'] as string;
      if (!isJobId(id)) return badId(id);
      const store = storeOf(ctx);
      const job = store.readRecord(id);
      if (!job) {
        return {
          exitCode: ExitCode.NOT_FOUND,
          error: { code: ErrorCode.JobNotFound, message: `no job ${id}`, retryable: false },
        };
      }
      const now = ctx.now();
      const status = settleJob(store, job, now);
      if (status && isTerminal(status.state)) {
        const abandoned = endedUnfinished(status.state);
        if (abandoned) cancelIdleJob(store, job, now);
        const state = store.readStatus(id)?.state ?? status.state;
        return { exitCode: ExitCode.SUCCESS, data: { job_id: id, state, cancelled: abandoned } };
      }
      if (!status || status.state === JobState.Paused) {
        cancelIdleJob(store, job, now);
        return { exitCode: ExitCode.SUCCESS, data: { job_id: id, state: JobState.Cancelled, cancelled: true } };
      }
      store.requestCancel(id);
      const budgetMs = budgetOf(ctx, flags['budget'], ctx.interactive);
      const until = budgetMs ? now + budgetMs : undefined;
      const ended = await waitOnJob({ store, now: () => ctx.now(), id, started: now, until, budgetMs, retryableOf });
      if (ended.meta.exit_code === ExitCode.INCOMPLETE) return replay(ended);
      // Judged stalled or lost while we waited: nobody runs it now, so its checkpoint is discarded here.
      const after = store.readStatus(id);
      if (after && endedUnfinished(after.state)) cancelIdleJob(store, job, ctx.now());
      const state = store.readStatus(id)?.state ?? JobState.Cancelled;
      return { exitCode: ExitCode.SUCCESS, data: { job_id: id, state, cancelled: true } };
    },
  };
}

/** A row of `job list`. */
interface ListedJob {
  job_id: string;
  command: string;
  state: string;
  progress: { done: number; total?: number };
}

function listedJobLine(j: ListedJob): string {
  const total = j.progress.total !== undefined ? `/${j.progress.total}` : '';
  return `${j.job_id.padEnd(24)} ${j.state.padEnd(10)} ${String(j.progress.done).padStart(12)}${total}  ${j.command}`;
}

function jobListCommand({ storeOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job list',
    description: 'List jobs with their state and progress (finished jobs are kept 24 hours)',
    dangerLevel: DangerLevel.Safe,
    exitCodes: {
      [ExitCode.SUCCESS]: { description: 'The jobs were listed', retryable: false, sideEffects: SideEffects.Complete },
    },
    async run(_input, ctx) {
      const store = storeOf(ctx);
      store.sweep(ctx.now());
      const jobs = store.list().flatMap((id) => {
        const job = store.readRecord(id);
        // Looking is judging: a job found stalled or lost is ended as such, for every later reader too.
        const status = job && settleJob(store, job, ctx.now());
        if (!job || !status) return [];
        return [{
          job_id: id,
          command: [job.program, ...job.command].join(' '),
          state: status.state,
          progress: status.progress ?? { done: 0 },
          created_at: new Date(job.createdAt).toISOString(),
          updated_at: new Date(status.updatedAt).toISOString(),
        }];
      }).sort((a, b) => a.created_at.localeCompare(b.created_at));
      const pagination = {
        total: jobs.length, returned: jobs.length, truncated: false, has_more: false, next_cursor: null,
      };
      return { exitCode: ExitCode.SUCCESS, data: jobs, meta: { pagination } };
    },
    text: (data) => (data as ListedJob[]).map(listedJobLine).join('\n') + '\n',
  };
}

/** `job wait|status|cancel|list`, generated for every program built on stint (REQ-F-081). */
export function jobCommands(program: () => ProgramContext): CommandSpec[] {
  const deps: JobCommandDeps = {
    storeOf: (ctx) => new JobStore(stateDirPath(ctx.env, program().identity.name)),
    retryableOf: (job) => program().commands
      .find((c) => c.path.join(' ') === job.command.join(' '))?.exitCodes[ExitCode.INCOMPLETE]?.retryable ?? false,
  };
  return [
    jobWaitCommand(deps), jobStatusCommand(deps), jobCancelCommand(deps), jobListCommand(deps),
    jobWatchCommand(deps),
  ];
}
