import type { Envelope } from '../../contract/envelope.js';
import type { Progress } from '../../contract/incomplete.js';
import { JobState } from '../../contract/vocabulary/job-state.js';
import type { MonotonicReading } from '../authoring/monotonic-clock.js';
import type { ProcessIdentity } from './process-identity.js';
import { isJobId } from './job-id.js';

/** What a job is: written once when it starts, read by every other process. */
export interface JobRecord {
  readonly id: string;
  /** The invocation key: identical invocations share it. */
  readonly key: string;
  readonly program: string;
  /** Command path words, e.g. ['analyze']. */
  readonly command: readonly string[];
  /** The caller's argv after the program name. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** How a shell in cwd runs the program (for continue_command and cancel_command). */
  readonly programWords: readonly string[];
  readonly detach: boolean;
  readonly resume: boolean;
  readonly writes: boolean;
  /** The effective idempotency key of a writer (given or generated). */
  readonly idempotencyKey?: string;
  /** Whether the caller gave that key, so a continuation does not add it twice. */
  readonly keyGiven?: boolean;
  /** The spooled stdin, inside the job's folder, for a command that declares stdin. */
  readonly stdinPath?: string;
  readonly idleTimeoutMs: number;
  /** Wall clock over the whole work; 0 = none. */
  readonly timeoutMs: number;
  readonly createdAt: number;
  /** When it was created on its creator's monotonic clock: how old it is, whatever the wall clocks say. */
  readonly born?: MonotonicReading;
}

/**
 * The writer's boot-clock readings (see monotonic-clock.ts): an observer on
 * the same machine tells from these how long the job has been silent and
 * flat without comparing its wall clock with the writer's.
 */
export interface Heartbeat {
  readonly boot: string;
  /** When this status was written. */
  readonly at: number;
  /** When progress last grew (or the current run started). */
  readonly progressAt: number;
}

/** Where a job is now; rewritten (atomically) as it goes. */
export interface JobStatus {
  readonly state: JobState;
  /** The process doing the work, while it runs. */
  readonly pid?: number;
  /** That process's start time (see ProcessIdentity): a pid reused by another process is not taken for it. */
  readonly pidStart?: number;
  readonly progress?: Progress;
  readonly startedAt: number;
  /** The last write: a running process writes at least every STATUS_REFRESH_MS, so a frozen one falls silent. */
  readonly updatedAt: number;
  /** When progress.done last grew (the idle watchdog's clock). */
  readonly progressAt: number;
  readonly endedAt?: number;
  /** Written by a running process whose system has a boot clock. */
  readonly heartbeat?: Heartbeat;
  /** Ended after its caller was answered 14: the next identical call gets the job's answer (job-end.ts). */
  readonly unseen?: boolean;
}

/** The stored final response of an ended job. */
export type JobResult = Envelope;

/** The heartbeat of a status written at `reading` with progress last grown at `progressMs` (none off a boot clock). */
export function heartbeatOf(reading: MonotonicReading, progressMs = reading.ms): Pick<JobStatus, 'heartbeat'> {
  return reading.boot ? { heartbeat: { boot: reading.boot, at: reading.ms, progressAt: progressMs } } : {};
}

/** The process a status names, as an identity (pid only in a status an older version wrote). */
export function statusIdentity(status: JobStatus): ProcessIdentity | undefined {
  if (!status.pid) return undefined;
  return status.pidStart !== undefined ? { pid: status.pid, start: status.pidStart } : { pid: status.pid };
}

/** The status fields naming the process that runs the job. */
export function identityFields(identity: ProcessIdentity): Pick<JobStatus, 'pid' | 'pidStart'> {
  return identity.start !== undefined ? { pid: identity.pid, pidStart: identity.start } : { pid: identity.pid };
}

const STATES: readonly unknown[] = Object.values(JobState);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Whether parsed job.json has the fields every reader relies on (a damaged file counts as unreadable). */
export function isJobRecord(value: unknown): value is JobRecord {
  return isObject(value)
    && ['id', 'key', 'program', 'cwd'].every((field) => typeof value[field] === 'string')
    && isJobId(value['id'] as string)
    && ['command', 'argv', 'programWords'].every((field) => isWords(value[field]))
    && ['idleTimeoutMs', 'timeoutMs', 'createdAt'].every((field) => typeof value[field] === 'number');
}

/** Words of a command line: strings, every one (they are printed and run). */
const isWords = (value: unknown): boolean => Array.isArray(value) && value.every((word) => typeof word === 'string');

/** Whether parsed status.json has a known state and its clocks. */
export function isJobStatus(value: unknown): value is JobStatus {
  return isObject(value) && STATES.includes(value['state']) && typeof value['startedAt'] === 'number'
    && typeof value['updatedAt'] === 'number' && typeof value['progressAt'] === 'number';
}
