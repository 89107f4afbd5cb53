import type { IncompleteData, Progress } from '../../../contract/incomplete.js';
import { JobState } from '../../../contract/vocabulary/job-state.js';
import { formatDuration } from '../../../runtime/cli/duration.js';
import { describeProgress } from '../../../runtime/cli/progress-display.js';

/** One item of `job watch`: where the job stands, with what a program needs to plan around it. */
export interface WatchItem {
  readonly job_id: string;
  readonly state: string;
  readonly progress: Progress;
  /** Since the job was created. */
  readonly elapsed_ms: number;
  /** Units of progress a second, over the watch so far; absent until progress has moved. */
  readonly rate_per_s?: number;
  /** At that rate, until progress.total; absent without a total or a rate. */
  readonly eta_ms?: number;
}

/** What `job watch` has seen of a job: it makes an item only when the progress changed. */
export interface WatchProgress {
  next(data: IncompleteData, now: number): WatchItem | undefined;
  heartbeat(now: number): Readonly<Record<string, unknown>>;
}

const sameProgress = (a: Progress, b: Progress): boolean =>
  a.done === b.done && a.total === b.total && a.unit === b.unit;

function rateAndEta(first: { at: number; done: number }, progress: Progress, now: number) {
  const seconds = (now - first.at) / 1000;
  if (seconds <= 0 || progress.done <= first.done) return {};
  const rate = (progress.done - first.done) / seconds;
  const left = progress.total !== undefined ? Math.max(0, progress.total - progress.done) : undefined;
  return {
    rate_per_s: Math.round(rate * 100) / 100,
    ...(left !== undefined ? { eta_ms: Math.round((left / rate) * 1000) } : {}),
  };
}

export function watchProgress(jobId: string, createdAt: number): WatchProgress {
  let first: { at: number; done: number } | undefined;
  let last: IncompleteData | undefined;
  return {
    next(data, now) {
      if (last && last.state === data.state && sameProgress(last.progress, data.progress)) return undefined;
      last = data;
      first ??= { at: now, done: data.progress.done };
      return {
        job_id: jobId,
        state: data.state,
        progress: data.progress,
        elapsed_ms: now - createdAt,
        ...rateAndEta(first, data.progress, now),
      };
    },
    heartbeat: (now) => ({ job_id: jobId, state: last?.state ?? JobState.Running, elapsed_ms: now - createdAt }),
  };
}

/** `--format text`: one readable line an item (or heartbeat). */
export function watchItemText(item: Readonly<Record<string, unknown>>): string {
  const elapsed = formatDuration(Number(item['elapsed_ms'] ?? 0));
  const head = `${String(item['job_id'])} ${String(item['state'])}`;
  if (item['heartbeat']) return `${head}: no change (${elapsed})`;
  const progress = item['progress'] as Progress;
  const perSecond = { done: Math.round(Number(item['rate_per_s'])), ...(progress.unit ? { unit: progress.unit } : {}) };
  const rate = item['rate_per_s'] !== undefined ? `, ${describeProgress(perSecond)}/s` : '';
  const eta = item['eta_ms'] !== undefined ? `, ETA ${formatDuration(Number(item['eta_ms']))}` : '';
  return `${head}: ${describeProgress(progress)}${rate}${eta} (${elapsed})`;
}
