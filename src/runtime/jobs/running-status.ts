import type { Progress } from '../../contract/incomplete.js';
import { JobState } from '../../contract/vocabulary/job-state.js';
import type { Host } from '../authoring/host.js';
import { keptProgress } from '../storage/checkpoint-folder.js';
import type { WorkSoFar } from './job-end.js';
import { STATUS_REFRESH_MS } from './job-liveness.js';
import { heartbeatOf, identityFields, type JobRecord, type JobStatus } from './job-record.js';
import type { JobStore } from './job-store.js';
import { identityOf } from './process-identity.js';

const further = (a: Progress | undefined, b: Progress | undefined) => ((b?.done ?? -1) > (a?.done ?? -1) ? b : a);

/**
 * The `running` status of a job this process runs: written when the run
 * starts, kept current as progress moves and as a sign of life, and the
 * work done so far that the job's end records.
 */
export class RunningStatus {
  private readonly self: Pick<JobStatus, 'pid' | 'pidStart'>;
  private readonly startedAt: number;
  private progress: Progress | undefined;
  private progressAt: number;
  /** progressAt on the monotonic clock: what the idle watchdog and observers measure idle time on. */
  private progressMs: number;
  private lastWrite = 0;
  /**
   * Once the run is decided, the status belongs to whoever answers: a late report (the first safe point after an
   * answer at the budget, a stuck handler's commit) is written only while the status is still this run's own.
   */
  private closed = false;

  constructor(private readonly host: Host, private readonly store: JobStore, private readonly job: JobRecord) {
    const previous = store.readStatus(job.id);
    const now = host.now();
    this.self = identityFields(identityOf(host.pid));
    this.startedAt = previous?.startedAt ?? now;
    // A new job over a kept checkpoint (its old record lost or damaged) starts from what the checkpoint holds.
    this.progress = further(previous?.progress, keptProgress(store.root, job.key));
    this.progressAt = now;
    this.progressMs = host.monotonic().ms;
    this.write(true);
  }

  /** When progress last grew, on the host's monotonic clock (the idle watchdog's: a wall-clock step moves nothing). */
  get lastProgressAt(): number {
    return this.progressMs;
  }

  get workSoFar(): WorkSoFar {
    const { startedAt, progressAt, progress } = this;
    return { startedAt, progressAt, ...(progress ? { progress } : {}) };
  }

  get lastProgress(): Progress | undefined {
    return this.progress;
  }

  /** A progress report from the handler. */
  report(next: Progress): void {
    const { ms } = this.host.monotonic();
    if (!this.progress || next.done > this.progress.done) {
      this.progressAt = this.host.now();
      this.progressMs = ms;
    }
    this.progress = next;
    // Every published figure is written (it is what was kept, so there are few): `job status` never shows less
    // than a heartbeat or an answer of this process showed before it, nor does a job that continues this one
    // after its process was killed between a late commit and its pause.
    if (!this.closed || this.stillOwn()) this.note();
  }

  /** A sign of life for observers (job wait, the identical call): a frozen process falls silent, judged stalled. */
  refresh(): void {
    if (this.host.monotonic().ms - this.lastWrite >= STATUS_REFRESH_MS) this.note();
  }

  close(): void {
    this.closed = true;
  }

  /** Whether the status on disk is still this process's running one: nobody has paused, handed off or ended it. */
  private stillOwn(): boolean {
    const now = this.store.readStatus(this.job.id);
    return now?.state === JobState.Running && now.pid === this.self.pid && now.pidStart === this.self.pidStart;
  }

  private note(): void {
    try {
      this.write(false);
    } catch {
      // A note that cannot be written (a full disk) must not stop the work; state changes still must be.
    }
  }

  private write(durable: boolean): void {
    const reading = this.host.monotonic();
    const beat = heartbeatOf(reading, this.progressMs);
    const status = { ...this.workSoFar, state: JobState.Running, updatedAt: this.host.now(), ...this.self, ...beat };
    this.store.writeStatus(this.job.id, status, durable);
    this.lastWrite = reading.ms;
  }
}
