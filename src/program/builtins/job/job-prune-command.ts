import { ExitCode } from '../../../contract/exit-code.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { isTerminal, type JobState } from '../../../contract/vocabulary/job-state.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';
import type { CommandSpec } from '../../../runtime/authoring/command-spec.js';
import { DRY_RUN_FLAG } from '../../../runtime/authoring/framework-flags.js';
import type { JobStore } from '../../../runtime/jobs/job-store.js';
import { DELETE_SLICE_MS, PrunedJobs } from '../../../runtime/jobs/pruned-jobs.js';
import { STATE_FOLDER_EXIT_CODES, type JobCommandDeps } from './job-command-parts.js';
import { DEFAULT_LIMIT } from './job-list-command.js';
import type { JobView } from './job-view.js';
import { jobRows, lookOf, refusals, viewsOfRows, type JobRow, type Refused, type WalkLook } from './job-walk.js';
import { KeyedAnswers } from './keyed-answers.js';
import { PruneEffect } from './prune-effect.js';
import { JOB_PRUNE_SCHEMA } from './job-schemas.js';


/**
 * How many removed jobs the answer shows (oldest first); past that it says
 * how many there were of each state: an answer of ten thousand rows is
 * megabytes nobody reads.
 */
export const PRUNE_SHOWN = DEFAULT_LIMIT;

/** The jobs that ended (judged now) at least `olderThanMs` ago, oldest first; running and paused ones never. */
function endedJobs(store: JobStore, look: WalkLook, olderThanMs: number, refused: Refused): JobRow[] {
  // An ended job's status was last written when it ended.
  const old = (row: JobRow) => isTerminal(row.state) && look.now - row.updatedAt >= olderThanMs;
  return jobRows(store, look, refused).filter(old);
}

/** Takes the jobs out of the state folder (those another call took first are not counted), then deletes for a slice. */
function removeJobs(store: JobStore, rows: readonly JobRow[], clock: () => number): JobRow[] {
  const pruned = new PrunedJobs(store.root);
  const taken = rows.filter((row) => pruned.take(store.dir(row.id), row.id));
  pruned.deleteFor(DELETE_SLICE_MS, clock);
  return taken;
}

/** The count, the count of each state, and the first PRUNE_SHOWN jobs (`truncated` when there were more). */
function summaryOf(rows: readonly JobRow[], shown: readonly JobView[]) {
  const states: Partial<Record<JobState, number>> = {};
  for (const row of rows) states[row.state] = (states[row.state] ?? 0) + 1;
  const ids = new Set(rows.map((row) => row.id));
  const jobs = shown.filter((view) => ids.has(view.job_id));
  return { count: rows.length, states, jobs, truncated: jobs.length < rows.length };
}

const statesText = (states: Partial<Record<JobState, number>>): string =>
  Object.entries(states).map(([state, n]) => `${n} ${state}`).join(', ');

export function jobPruneCommand({ storeOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job prune',
    outputSchema: JOB_PRUNE_SCHEMA,
    description: 'Remove the jobs that ended, with their stored answers and logs; never a running or paused job,'
      + ' and checkpoints stay. Asks first: --yes confirms, --dry-run lists what it would remove',
    dangerLevel: DangerLevel.Destructive,
    // Repeats are answered by keyed-answers.ts, by the filter a key named.
    keyedReplay: false,
    confirm: true,
    flags: {
      'older-than': { type: 'duration', default: 0, description: 'Only jobs that ended at least this long ago' },
      [DRY_RUN_FLAG]: { type: 'boolean', description: 'List the jobs it would remove and remove nothing' },
    },
    exitCodes: {
      ...STATE_FOLDER_EXIT_CODES,
      [ExitCode.SUCCESS]: {
        description: 'The ended jobs are removed (--dry-run: listed)',
        retryable: false,
        sideEffects: SideEffects.Complete,
      },
      [ExitCode.CONFLICT]: {
        description: 'The --idempotency-key already named a prune with another --older-than',
        retryable: false,
        sideEffects: SideEffects.None,
      },
    },
    async run(input, ctx) {
      const { options } = input;
      const flags = input.flags as Readonly<Record<string, unknown>>;
      const store = storeOf(ctx);
      const olderThan = flags['older-than'] as number;
      const dryRun = flags[DRY_RUN_FLAG] === true;
      const answers = new KeyedAnswers(store, 'prune');
      const earlier = dryRun ? 'go' : answers.earlier(options, `older-than ${olderThan}`);
      if (earlier !== 'go') return earlier;
      const { refused, warnings } = refusals();
      const ended = endedJobs(store, lookOf(ctx), olderThan, refused);
      // Read before the folders move away.
      const shown = viewsOfRows(store, ended.slice(0, PRUNE_SHOWN), lookOf(ctx), refused);
      const jobs = dryRun ? ended : removeJobs(store, ended, () => ctx.now());
      const effect = dryRun ? PruneEffect.WouldRemove : PruneEffect.Removed;
      const data = { effect, ...summaryOf(jobs, shown) };
      const result = {
        exitCode: ExitCode.SUCCESS, data, warnings: warnings(), ...(dryRun ? { meta: { dry_run: true } } : {}),
      };
      if (!dryRun) answers.keep(options, `older-than ${olderThan}`, result);
      const verb = dryRun ? 'Would remove' : 'Removed';
      const more = data.count - data.jobs.length;
      const text = async () => `${verb} ${jobs.length} ended ${jobs.length === 1 ? 'job' : 'jobs'}.\n`
        + (jobs.length ? (await import('./job-table.js')).jobTable(data.jobs) : '')
        + (more > 0 ? `and ${more} more; in all: ${statesText(data.states)}.\n` : '');
      return { ...result, text };
    },
  };
}
