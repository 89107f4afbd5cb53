import type { Envelope } from '../../contract/envelope.js';
import type { Progress } from '../../contract/incomplete.js';
import type { JobState } from '../../contract/vocabulary/job-state.js';

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
}

/** Where a job is now; rewritten (atomically) as it goes. */
export interface JobStatus {
  readonly state: JobState;
  /** The process doing the work, while it runs. */
  readonly pid?: number;
  readonly progress?: Progress;
  readonly startedAt: number;
  readonly updatedAt: number;
  /** When progress.done last grew (the idle watchdog's clock). */
  readonly progressAt: number;
  readonly endedAt?: number;
}

/** The stored final response of an ended job. */
export type JobResult = Envelope;
