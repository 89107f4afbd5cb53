import type { Envelope } from '../../contract/envelope.js';
import { JobState, isTerminal } from '../../contract/vocabulary/job-state.js';
import { CAUSE_OF_STOP, type StopReason } from '../../contract/vocabulary/stop-reason.js';
import { discardCheckpoint } from '../storage/checkpoint-folder.js';
import type { JobRecord, JobStatus } from './job-record.js';
import type { JobStore } from './job-store.js';
import type { ProcessIdentity } from './process-identity.js';
import { fallbackOutcome } from './stop-answers.js';
import { CheckpointFate, STOP_TABLE } from './stop-table.js';

/**
 * Ends the identical call continues from: the job kept its checkpoint, and the progress it kept is where the next
 * job starts. The key stays with such a job until that call takes it over (job-acquire.ts), so the progress reaches
 * the next job even when an observer wrote the end long before: a call forced before its first safe point answers
 * that progress, never less.
 */
export const CONTINUED_ENDS: readonly JobState[] = [JobState.Lost, JobState.Stalled];

/** Who held the job, and how that hold ends with it. */
export type Holder =
  /** This process ran it: its lease is released. */
  | { readonly kind: 'self'; readonly pid: number }
  /** An observer found it frozen: the process is killed for good (if still the same one), then its lease released. */
  | { readonly kind: 'frozen'; readonly identity: ProcessIdentity; readonly kill: (identity: ProcessIdentity) => void }
  /** An observer found its process gone: a lease that process left is dropped. */
  | { readonly kind: 'gone' }
  /** Nobody held it (a paused job). */
  | { readonly kind: 'none' };

/** Where the work had got to when it stopped: kept in the status the job ends with. */
export type WorkSoFar = Pick<JobStatus, 'startedAt' | 'progressAt' | 'progress'>;

/** How one job ends (or pauses): the single description every path fills in. */
export interface JobEnding {
  readonly state: JobState;
  readonly now: number;
  readonly from: WorkSoFar | undefined;
  /** The job's final answer: given exactly when the state is terminal. */
  readonly answer: Envelope | undefined;
  readonly checkpoint: CheckpointFate;
  readonly holder: Holder;
  /** Ends another observer wrote that this one may replace (a cancel of a job found lost); default none. */
  readonly replaces?: readonly JobState[];
  /**
   * Its caller was answered 14 before the work ended (a budget forced before the call's first safe point):
   * the invocation key stays with the job, so the next identical call gets this answer (JobStatus.unseen).
   */
  readonly unseen?: boolean;
}

/**
 * The one end of a job, in an order that every crash between two steps
 * leaves readable: the end (status and answer in one exclusive write:
 * whoever writes it first, the job itself or an observer, wins and nobody
 * replaces it), the checkpoint (when discarded), the holder's lease, then
 * the invocation key (so the next identical call makes a new job only once
 * this one's end is written; a continued end keeps it, CONTINUED_ENDS). A pause is written the same way unless the
 * job already ended. Returns the answer that stands: this one, or the end
 * written first.
 */
export function endJob(store: JobStore, job: JobRecord, ending: JobEnding): Envelope | undefined {
  const terminal = isTerminal(ending.state);
  const status = endStatus(ending, terminal);
  const earlier = terminal ? !wrote(store, job, ending, status) : store.readEnd(job.id) !== undefined;
  if (earlier) {
    // Its own lease goes either way: a process that finds its job ended by another runs it no further.
    if (ending.holder.kind === 'self') releaseHolder(store, job, ending.holder);
    return store.readResult(job.id);
  }
  if (!terminal) store.writeStatus(job.id, status);
  if (ending.checkpoint === CheckpointFate.Discard) discardCheckpoint(store.root, job.key);
  releaseHolder(store, job, ending.holder);
  // A job whose work goes on from its checkpoint keeps the key: the next identical call finds it, and its new job
  // starts from the progress this one kept (job-acquire.ts), never from nothing.
  const continued = CONTINUED_ENDS.includes(ending.state) || ending.checkpoint === CheckpointFate.Keep;
  if (terminal && !ending.unseen && !continued) store.releaseKey(job.key, job.id);
  return ending.answer;
}

/** Writes a terminal end unless another was written first (one this observer may replace aside). */
function wrote(store: JobStore, job: JobRecord, ending: JobEnding, status: JobStatus): boolean {
  const end = { status, ...(ending.answer ? { result: ending.answer } : {}) };
  return store.claimEnd(job.id, end) || store.replaceObserverEnd(job.id, end, ending.replaces ?? []);
}

function endStatus({ state, now, from, unseen }: JobEnding, terminal: boolean): JobStatus {
  return {
    state,
    startedAt: from?.startedAt ?? now,
    progressAt: from?.progressAt ?? now,
    ...(from?.progress ? { progress: from.progress } : {}),
    updatedAt: now,
    ...(terminal ? { endedAt: now } : {}),
    ...(terminal && unseen ? { unseen: true } : {}),
  };
}

function releaseHolder(store: JobStore, job: JobRecord, holder: Holder): void {
  if (holder.kind === 'self') store.releaseLease(job.id, holder.pid);
  if (holder.kind === 'gone') store.dropStaleLease(job.id);
  if (holder.kind === 'frozen') {
    holder.kill(holder.identity);
    store.releaseLease(job.id, holder.identity.pid);
  }
}

/** A job ended by a stop: what its handler had to say (if anything) and where the call stands. */
export interface StoppedParts {
  /** The handler's partial outcome; none when it never reached a safe point (the fallback stands in). */
  readonly data?: unknown;
  /** Why, in the fallback outcome's words; default `stopped: <reason>`. */
  readonly note?: string;
  readonly durationMs: number;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly now: number;
  readonly from: WorkSoFar | undefined;
  readonly holder: Holder;
  readonly replaces?: readonly JobState[];
}

/** Ends a job as STOP_TABLE says for `reason` (a reason with an answer of its own); returns the answer that stands. */
export function endStopped(store: JobStore, job: JobRecord, reason: StopReason, parts: StoppedParts): Envelope {
  const effect = STOP_TABLE[reason];
  if (!effect.answer) throw new Error(`a ${reason} stop hands the job back to its caller; it does not end it`);
  const note = parts.note ?? `stopped: ${reason}`;
  const partial = parts.data ?? fallbackOutcome(job, note, CAUSE_OF_STOP[reason], parts.from?.progress);
  const answer = effect.answer({ job, partial, durationMs: parts.durationMs, meta: parts.meta });
  return endJob(store, job, { ...parts, state: effect.state, answer, checkpoint: effect.checkpoint }) ?? answer;
}
