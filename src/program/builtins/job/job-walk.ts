import type { WarningDetail } from '../../../contract/envelope.js';
import { ErrorCode } from '../../../contract/error-code.js';
import { StintError } from '../../../contract/stint-error.js';
import { JobState } from '../../../contract/vocabulary/job-state.js';
import { WarningCode } from '../../../contract/warning-code.js';
import type { JobRecord } from '../../../runtime/jobs/job-record.js';
import { EndedIndex, type EndedEntry } from '../../../runtime/jobs/ended-index.js';
import { settleJob } from '../../../runtime/jobs/job-outcomes.js';
import type { CommandContext } from '../../../runtime/authoring/command-spec.js';
import type { MonotonicReading } from '../../../runtime/authoring/monotonic-clock.js';
import { isExpired, type JobStore } from '../../../runtime/jobs/job-store.js';
import { viewOf, type JobView } from './job-view.js';

/** A job as a listing orders, filters and counts it; its whole view is read only for the rows shown. */
export interface JobRow {
  readonly id: string;
  /** `<created_at>|<id>`: the listings' order (oldest first) and what a cursor names. */
  readonly position: string;
  readonly state: JobState;
  readonly updatedAt: number;
}

const rowOf = (entry: EndedEntry): JobRow => ({
  id: entry.id,
  position: `${new Date(entry.createdAt).toISOString()}|${entry.id}`,
  state: entry.state,
  updatedAt: entry.updatedAt,
});

/**
 * The ends the index keeps: never an observer's verdict (lost, stalled), which
 * a later `job cancel` may still replace, and only once the end has stood
 * SETTLED_MS, past the moments in which ends are still being written.
 */
const KEPT_ENDS: readonly JobState[] = [JobState.Done, JobState.Failed, JobState.Cancelled, JobState.TimedOut];
export const SETTLED_MS = 60_000;

const settled = (entry: EndedEntry, now: number): boolean =>
  KEPT_ENDS.includes(entry.state) && now - (entry.endedAt ?? entry.updatedAt) > SETTLED_MS;

/** Told each job a listing leaves out because its record is refused (JOB_RECORD_INVALID), as a warning. */
export type Refused = (warning: WarningDetail) => void;

/** The job's record, or undefined when it is gone or refused: one refused record does not fail the listing. */
function trusted(store: JobStore, id: string, refused: Refused): JobRecord | undefined {
  try {
    return store.readRecord(id);
  } catch (error) {
    if (!(error instanceof StintError) || error.code !== ErrorCode.JobRecordInvalid) throw error;
    const message = `${error.message}; left out: remove its folder (jobs/${id} in the state folder)`;
    refused({ code: WarningCode.JobRecordInvalid, message, context: { job_id: id } });
    return undefined;
  }
}

/** The warnings of a listing's refused jobs, once each. */
export function refusals(): { refused: Refused; warnings: () => WarningDetail[] } {
  const byJob = new Map<unknown, WarningDetail>();
  return {
    refused: (warning) => void byJob.set(warning.context?.['job_id'], warning),
    warnings: () => [...byJob.values()],
  };
}

/** When a listing looks: now on the wall clock (ages, retention) and on the monotonic one (liveness). */
export interface WalkLook {
  readonly now: number;
  readonly reading: MonotonicReading;
}

export const lookOf = (ctx: Pick<CommandContext, 'now' | 'monotonic'>): WalkLook =>
  ({ now: ctx.now(), reading: ctx.monotonic() });

/** Reads and judges a job the index does not know (a job found stalled or lost is ended so). */
function judged(store: JobStore, id: string, look: WalkLook, refused: Refused): EndedEntry | undefined {
  const job = trusted(store, id, refused);
  const status = job && settleJob(store, job, { look }).status;
  if (!job || !status) return undefined;
  const { state, updatedAt, endedAt } = status;
  return { id, createdAt: job.createdAt, state, updatedAt, ...(endedAt !== undefined ? { endedAt } : {}) };
}

/**
 * Every job as it stands now, oldest first: ended jobs from the index of
 * ended jobs, the others (and ended ones it does not know yet) from their
 * files, judged. Jobs past their retention are left out (the next sweep removes them).
 */
export function jobRows(store: JobStore, look: WalkLook, refused: Refused): JobRow[] {
  const { now } = look;
  const index = new EndedIndex(store.root);
  const known = index.read();
  const learned: EndedEntry[] = [];
  const kept: EndedEntry[] = [];
  for (const id of store.names()) {
    const entry = known.get(id) ?? judged(store, id, look, refused);
    if (!entry) continue;
    if (!known.has(id) && settled(entry, now)) learned.push(entry);
    if (!isExpired(entry, now)) kept.push(entry);
  }
  // Lines of jobs gone (pruned, swept) are dropped once they are most of the index.
  if (known.size > 2 * kept.length + 100) index.rewrite([...kept.filter((entry) => known.has(entry.id)), ...learned]);
  else index.add(learned);
  return kept.map(rowOf).sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}

/** The whole view of a row, from its job's files; undefined when they went meanwhile. */
export function viewOfRow(store: JobStore, row: JobRow, look: WalkLook, refused: Refused): JobView | undefined {
  const job = trusted(store, row.id, refused);
  const status = job && settleJob(store, job, { look }).status;
  return job && status ? viewOf(job, status, look.now) : undefined;
}

export const viewsOfRows = (store: JobStore, rows: readonly JobRow[], look: WalkLook, refused: Refused): JobView[] =>
  rows.flatMap((row) => viewOfRow(store, row, look, refused) ?? []);
