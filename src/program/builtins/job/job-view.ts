import type { Progress } from '../../../contract/incomplete.js';
import { JobState } from '../../../contract/vocabulary/job-state.js';
import { ProgressUnit } from '../../../contract/vocabulary/progress-unit.js';
import { formatSizeFigure } from '../../../runtime/cli/byte-size.js';
import { formatDuration } from '../../../runtime/cli/duration.js';
import { shellJoin } from '../../../runtime/cli/shell-quote.js';
import type { JobRecord, JobStatus } from '../../../runtime/jobs/job-record.js';

/** A job as people and agents look at it: how far, how fast, how long until done. */
export interface JobView {
  readonly job_id: string;
  /** The program and command path, e.g. `stint analyze`. */
  readonly command: string;
  /** The caller's words after the program name, e.g. `['analyze', 'big.csv', '--workers', '2']`. */
  readonly argv: readonly string[];
  readonly state: JobState;
  readonly progress: Progress;
  readonly created_at: string;
  readonly updated_at: string;
  readonly age_ms: number;
  /** Since the status was last written (a running job writes it at least every few seconds). */
  readonly updated_ms_ago: number;
  /** Whole percent, when the work has a total. */
  readonly percent?: number;
  /** Units per second over the job's life so far, while it runs and once any work was done. */
  readonly rate?: number;
  /** Time left at that rate, while the job runs and has a total. */
  readonly eta_ms?: number;
}

export function viewOf(job: JobRecord, status: JobStatus, now: number): JobView {
  const progress = status.progress ?? { done: 0 };
  const seconds = (status.updatedAt - status.startedAt) / 1000;
  const rate = seconds > 0 && progress.done > 0 ? progress.done / seconds : undefined;
  const left = progress.total !== undefined ? Math.max(0, progress.total - progress.done) : undefined;
  const running = status.state === JobState.Running;
  return {
    job_id: job.id,
    command: [job.program, ...job.command].join(' '),
    argv: job.argv,
    state: status.state,
    progress,
    created_at: new Date(job.createdAt).toISOString(),
    updated_at: new Date(status.updatedAt).toISOString(),
    age_ms: Math.max(0, now - job.createdAt),
    updated_ms_ago: Math.max(0, now - status.updatedAt),
    ...(progress.total ? { percent: Math.min(100, Math.floor((100 * progress.done) / progress.total)) } : {}),
    // A rate over a life that held pauses would mislead: shown while the job runs only.
    ...(running && rate !== undefined ? { rate: Math.round(rate * 10) / 10 } : {}),
    ...(running && rate && left !== undefined ? { eta_ms: Math.round((left / rate) * 1000) } : {}),
  };
}

/** The command line a job runs, as a shell would take it: `stint analyze big.csv`. */
export function commandLineOf(job: Pick<JobRecord, 'program' | 'argv'>): string {
  return shellJoin([job.program, ...job.argv]);
}

/** `1.5 MiB` for bytes, `12,345 rows` for other units. */
export function quantity(value: number, unit: string | undefined): string {
  if (unit === ProgressUnit.Bytes) return formatSizeFigure(value);
  return `${Math.round(value).toLocaleString('en-US')}${unit ? ` ${unit}` : ''}`;
}

/** `3s`, `4m10s`, `2h`: how long ago, or how long to go, for people. */
export const age = (ms: number): string => (ms < 1_000 ? '0s' : formatDuration(Math.round(ms / 1_000) * 1_000));

export const rateText = (view: JobView): string =>
  (view.rate !== undefined ? `${quantity(view.rate, view.progress.unit)}/s` : '-');
export const etaText = (view: JobView): string => (view.eta_ms !== undefined ? age(view.eta_ms) : '-');
