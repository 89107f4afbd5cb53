import { ExitCode } from '../../../contract/exit-code.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { JobState, isTerminal } from '../../../contract/vocabulary/job-state.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';
import type { CommandContext, CommandResult, CommandSpec } from '../../../runtime/authoring/command-spec.js';
import { DRY_RUN_FLAG } from '../../../runtime/authoring/framework-flags.js';
import { isJobId } from '../../../runtime/jobs/job-id.js';
import { cancelAbandonedJob, cancelPausedJob, settleJob } from '../../../runtime/jobs/job-outcomes.js';
import type { JobRecord } from '../../../runtime/jobs/job-record.js';
import type { JobStore } from '../../../runtime/jobs/job-store.js';
import { waitDeadline } from '../../../runtime/jobs/budget-plan.js';
import { waitOnJob } from '../../../runtime/jobs/job-wait.js';
import { KeyedAnswers } from './keyed-answers.js';
import { CancelEffect, cancelPreview, endedUnfinished } from './cancel-preview.js';
import {
  badId, budgetFlag, budgetOf, idArgument, noJob, replay, STATE_FOLDER_EXIT_CODES, type JobCommandDeps,
} from './job-command-parts.js';
import { JOB_CANCEL_SCHEMA } from './job-schemas.js';

const cancelFlags = {
  ...budgetFlag,
  [DRY_RUN_FLAG]: {
    type: 'boolean',
    description: 'Show what would be discarded (the job, its state, its checkpoint) and change nothing',
  },
} as const;

const answer = (id: string, state: JobState, cancelled: boolean): CommandResult => ({
  exitCode: ExitCode.SUCCESS,
  data: { job_id: id, state, cancelled, effect: cancelled ? CancelEffect.Cancelled : CancelEffect.None },
});

/** Ends the job (or finds it ended) and answers with its state; 14 while it has not reached a safe point. */
async function cancelJob(deps: JobCommandDeps, ctx: CommandContext, store: JobStore, job: JobRecord, flag: unknown) {
  const now = ctx.now();
  const { status } = settleJob(store, job, { look: { now, reading: ctx.monotonic() } });
  if (status && isTerminal(status.state)) {
    const cancelled = endedUnfinished(status.state) && cancelAbandonedJob(store, job, now, process.pid);
    return answer(job.id, store.readStatus(job.id)?.state ?? status.state, cancelled);
  }
  // A paused job the identical call took over just now (it holds the lease) is stopped like a running one.
  const idle = !status || status.state === JobState.Paused;
  if (idle && cancelPausedJob(store, job, now, process.pid)) return answer(job.id, JobState.Cancelled, true);
  store.requestCancel(job.id, now);
  const budgetMs = budgetOf(ctx, flag, ctx.interactive);
  const until = waitDeadline(now, budgetMs);
  const { retryableOf } = deps;
  const id = job.id;
  const waiting = { store, now: () => ctx.now(), id, started: now, until, budgetMs, retryableOf };
  const ended = await waitOnJob({ ...waiting, delivers: false });
  if (ended.meta.exit_code === ExitCode.INCOMPLETE) return replay(ended);
  // Judged stalled or lost while we waited: nobody runs it now, so its checkpoint is discarded here (unless the
  // identical call has already continued it in a new job). A job that ended on its own before its next safe
  // point (done, failed, timed out) was not ended by this call, and the answer says so.
  const after = store.readStatus(job.id);
  const cancelled = after === undefined || after.state === JobState.Cancelled
    || (endedUnfinished(after.state) && cancelAbandonedJob(store, job, ctx.now(), process.pid));
  return answer(job.id, store.readStatus(job.id)?.state ?? JobState.Cancelled, cancelled);
}

export function jobCancelCommand(deps: JobCommandDeps): CommandSpec {
  return {
    name: 'job cancel',
    outputSchema: JOB_CANCEL_SCHEMA,
    description: 'Stop a job at its next safe point and discard its checkpoint; the identical invocation then'
      + ' starts over (a writer\'s committed rows stay). Asks first: --yes confirms, --dry-run previews',
    dangerLevel: DangerLevel.Destructive,
    // Repeats are answered by keyed-answers.ts, which also knows which job a key named.
    keyedReplay: false,
    confirm: true,
    positionals: idArgument,
    flags: cancelFlags,
    exitCodes: {
      ...STATE_FOLDER_EXIT_CODES,
      [ExitCode.SUCCESS]: {
        description: 'The job is stopped (or had already ended); its checkpoint is gone. --dry-run: the preview',
        retryable: false,
        sideEffects: SideEffects.Complete,
      },
      [ExitCode.NOT_FOUND]: { description: 'No job has that id', retryable: false, sideEffects: SideEffects.None },
      [ExitCode.CONFLICT]: {
        description: 'The --idempotency-key already named a cancel of another job',
        retryable: false,
        sideEffects: SideEffects.None,
      },
      [ExitCode.INCOMPLETE]: {
        description: 'The job has not reached a safe point within the budget; it stops there',
        retryable: true,
        sideEffects: SideEffects.None,
      },
    },
    async run(input, ctx) {
      const { options } = input;
      const flags = input.flags as Readonly<Record<string, unknown>>;
      const id = input.positionals['id'] as string;
      if (!isJobId(id)) return badId(id);
      const store = deps.storeOf(ctx);
      const job = store.readRecord(id);
      if (!job) return noJob(id);
      if (flags[DRY_RUN_FLAG]) {
        const data = cancelPreview(store, job, store.readStatus(id));
        return { exitCode: ExitCode.SUCCESS, data, meta: { dry_run: true } };
      }
      const answers = new KeyedAnswers(store, 'cancel');
      const earlier = answers.earlier(options, id);
      if (earlier !== 'go') return earlier;
      const result = await cancelJob(deps, ctx, store, job, flags['budget']);
      answers.keep(options, id, result);
      return result;
    },
  };
}
