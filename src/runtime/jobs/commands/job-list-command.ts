import { ErrorCode } from '../../../contract/error-code.js';
import { ExitCode } from '../../../contract/exit-code.js';
import { ArgProblem } from '../../../contract/vocabulary/arg-problem.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { JobState } from '../../../contract/vocabulary/job-state.js';
import { membersOf } from '../../../contract/vocabulary/closed-set.js';
import { Phase } from '../../../contract/vocabulary/phase.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';
import type { CommandResult, CommandSpec } from '../../program/command-spec.js';
import { settleJob } from '../job-outcomes.js';
import { isExpired, type JobStore } from '../job-store.js';
import type { JobCommandDeps } from './job-command-parts.js';
import { viewOf, type JobView } from './job-view.js';

export const DEFAULT_LIMIT = 100;

/** Where a page ends: the last row's creation time and id (rows are in that order), opaque to callers. */
const cursorOf = (view: JobView): string => Buffer.from(`${view.created_at}|${view.job_id}`).toString('base64url');
const positionOf = (view: JobView): string => `${view.created_at}|${view.job_id}`;

function readCursor(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return /^\d{4}-\d\d-\d\dT[^|]+\|[a-z0-9-]+$/.test(text) ? text : undefined;
}

function badCursor(cursor: string): CommandResult {
  const message = `--cursor "${cursor}" is not a cursor of job list`;
  return {
    exitCode: ExitCode.ARG_ERROR,
    error: {
      code: ErrorCode.ArgError,
      message,
      retryable: false,
      phase: Phase.Validation,
      fix_required: 'Pass meta.pagination.next_cursor of an earlier job list',
      errors: [{ field: 'cursor', reason: ArgProblem.MalformedValue, message }],
    },
  };
}

/**
 * Every job as it stands now, oldest first; looking is judging (a job found
 * stalled or lost is ended so). One read of each job's record and status,
 * and a sort on plain string keys: with ten thousand jobs the walk, not the
 * sort, is what costs. Jobs past their retention are left out (the next sweep removes them).
 */
export function viewsOf(store: JobStore, now: number): JobView[] {
  const keyed = store.list().flatMap((id) => {
    const job = store.readRecord(id);
    const status = job && settleJob(store, job, now);
    if (!job || !status || isExpired(status, now)) return [];
    const view = viewOf(job, status, now);
    return [{ key: positionOf(view), view }];
  });
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ view }) => view);
}

export function jobListCommand({ storeOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job list',
    description: 'List jobs, oldest first: state, age, progress, rate, ETA and arguments'
      + ' (ended jobs are kept 24 hours, or until job prune)',
    dangerLevel: DangerLevel.Safe,
    flags: {
      state: { type: 'enum', enumValues: membersOf(JobState), description: 'Only jobs in this state' },
      limit: { type: 'integer', min: 1, default: DEFAULT_LIMIT, description: 'At most this many jobs' },
      cursor: { type: 'string', description: 'Continue after an earlier page (its meta.pagination.next_cursor)' },
    },
    exitCodes: {
      [ExitCode.SUCCESS]: { description: 'The jobs were listed', retryable: false, sideEffects: SideEffects.Complete },
    },
    async run(input, ctx) {
      const flags = input.flags as Readonly<Record<string, unknown>>;
      const after = flags['cursor'] === undefined ? '' : readCursor(flags['cursor'] as string);
      if (after === undefined) return badCursor(flags['cursor'] as string);
      const store = storeOf(ctx);
      // A full sweep reads every job again: this call's walk already leaves the expired out.
      store.sweepWhenDue(ctx.now());
      const state = flags['state'] as JobState | undefined;
      const matching = viewsOf(store, ctx.now()).filter((v) => state === undefined || v.state === state);
      const rest = matching.filter((v) => positionOf(v) > after);
      const page = rest.slice(0, flags['limit'] as number);
      const hasMore = rest.length > page.length;
      const pagination = {
        total: matching.length,
        returned: page.length,
        truncated: hasMore,
        has_more: hasMore,
        next_cursor: hasMore ? cursorOf(page.at(-1)!) : null,
      };
      const more = hasMore ? `${rest.length - page.length} more: add --cursor ${pagination.next_cursor}\n` : '';
      const text = async () => {
        const { columnsOf, jobTable } = await import('./job-table.js');
        return jobTable(page, ctx.stdoutWidth ?? columnsOf(ctx.env)) + more;
      };
      return { exitCode: ExitCode.SUCCESS, data: page, meta: { pagination }, text };
    },
    text: async (data, view) => (await import('./job-table.js')).jobTable(data as JobView[], view.width),
  };
}
