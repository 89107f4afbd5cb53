import { ErrorCode } from '../../../contract/error-code.js';
import { ExitCode } from '../../../contract/exit-code.js';
import { ArgProblem } from '../../../contract/vocabulary/arg-problem.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { JobState } from '../../../contract/vocabulary/job-state.js';
import { membersOf } from '../../../contract/vocabulary/closed-set.js';
import { Phase } from '../../../contract/vocabulary/phase.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';
import type { CommandResult, CommandSpec } from '../../../runtime/authoring/command-spec.js';
import { STATE_FOLDER_EXIT_CODES, type JobCommandDeps } from './job-command-parts.js';
import type { JobView } from './job-view.js';
import { jobRows, lookOf, refusals, viewsOfRows, type JobRow } from './job-walk.js';
import { JOB_LIST_SCHEMA } from './job-schemas.js';

export const DEFAULT_LIMIT = 100;

/** Where a page ends: the last row's creation time and id (rows are in that order), opaque to callers. */
const cursorOf = (row: JobRow): string => Buffer.from(row.position).toString('base64url');

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

export function jobListCommand({ storeOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job list',
    outputSchema: JOB_LIST_SCHEMA,
    description: 'List jobs, oldest first: state, age, progress, rate, ETA and arguments'
      + ' (ended jobs are kept 24 hours, or until job prune)',
    dangerLevel: DangerLevel.Safe,
    flags: {
      state: { type: 'enum', enumValues: membersOf(JobState), description: 'Only jobs in this state' },
      limit: { type: 'integer', min: 1, default: DEFAULT_LIMIT, description: 'At most this many jobs' },
      cursor: { type: 'string', description: 'Continue after an earlier page (its meta.pagination.next_cursor)' },
    },
    exitCodes: {
      ...STATE_FOLDER_EXIT_CODES,
      [ExitCode.SUCCESS]: { description: 'The jobs were listed', retryable: false, sideEffects: SideEffects.Complete },
    },
    async run(input, ctx) {
      const flags = input.flags as Readonly<Record<string, unknown>>;
      const after = flags['cursor'] === undefined ? '' : readCursor(flags['cursor'] as string);
      if (after === undefined) return badCursor(flags['cursor'] as string);
      const store = storeOf(ctx);
      // A full sweep reads every job: this call's walk already leaves the expired out.
      store.sweepWhenDue(() => ctx.now());
      const state = flags['state'] as JobState | undefined;
      const { refused, warnings } = refusals();
      const matching = jobRows(store, lookOf(ctx), refused).filter((row) => state === undefined || row.state === state);
      const rest = matching.filter((row) => row.position > after);
      const rows = rest.slice(0, flags['limit'] as number);
      const page = viewsOfRows(store, rows, lookOf(ctx), refused);
      const hasMore = rest.length > rows.length;
      const pagination = {
        total: matching.length,
        returned: page.length,
        truncated: hasMore,
        has_more: hasMore,
        next_cursor: hasMore ? cursorOf(rows.at(-1)!) : null,
      };
      const more = hasMore ? `${rest.length - rows.length} more: add --cursor ${pagination.next_cursor}\n` : '';
      const text = async () => {
        const { columnsOf, jobTable } = await import('./job-table.js');
        return jobTable(page, ctx.stdoutWidth ?? columnsOf(ctx.env)) + more;
      };
      return { exitCode: ExitCode.SUCCESS, data: page, meta: { pagination }, warnings: warnings(), text };
    },
    text: async (data, view) => (await import('./job-table.js')).jobTable(data as JobView[], view.width),
  };
}
