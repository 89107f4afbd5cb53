import {
  closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { isTerminal, type JobState } from '../../contract/vocabulary/job-state.js';
import { createFileOnce, readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import { fileAgeMs } from '../storage/file-age.js';
import { ensurePrivateDir } from '../storage/state-dir.js';
import { isJobRecord, isJobStatus, type JobRecord, type JobResult, type JobStatus } from './job-record.js';
import { DELETE_SLICE_MS, PrunedJobs } from './pruned-jobs.js';
import { formatIdentity, identityOf, parseIdentity, type ProcessIdentity } from './process-identity.js';
import { breakStaleLease, isStaleLease, readLease } from './stale-lease.js';

/** Finished jobs are kept this long, then cleaned. */
export const JOB_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How often a call sweeps: a sweep reads every job's status, too much for each of thousands of calls. */
export const SWEEP_EVERY_MS = 10 * 60 * 1000;
const LAST_SWEEP_FILE = 'last-sweep';
const LOG_TAIL_BYTES = 2048;

/** A job's end: its terminal status and, when it has one, its final answer, written together in one file. */
export interface JobEnd {
  readonly status: JobStatus;
  readonly result?: JobResult;
}

const isJobEnd = (value: unknown): value is JobEnd =>
  typeof value === 'object' && value !== null && isJobStatus((value as JobEnd).status)
  && isTerminal((value as JobEnd).status.state);

/** Whether an ended job is past its retention: a sweep removes it, and listings already leave it out. */
export function isExpired(
  status: Pick<JobStatus, 'state' | 'updatedAt' | 'endedAt'>,
  now: number,
  retentionMs = JOB_RETENTION_MS,
): boolean {
  return isTerminal(status.state) && now - (status.endedAt ?? status.updatedAt) > retentionMs;
}

/** The outcome of claiming an invocation key: this process owns a new job, or another job holds the key. */
export type Claim = { readonly kind: 'claimed' } | { readonly kind: 'held'; readonly id: string };

/**
 * Jobs in the state folder, one folder each, plus an index from invocation
 * key to job id. Small files written by temp file and rename: any process
 * reads them without locks and without opening a job's LevelDB.
 */
export class JobStore {
  readonly jobsDir: string;
  readonly keysDir: string;

  /** `check` refuses a record this program must not trust (job-words.ts); by default every record is read. */
  constructor(readonly root: string, private readonly check: (record: JobRecord, folder: string) => void = () => {}) {
    this.jobsDir = ensurePrivateDir(root, 'jobs');
    this.keysDir = ensurePrivateDir(root, 'keys');
  }

  dir(id: string): string {
    return join(this.jobsDir, id);
  }

  exists(id: string): boolean {
    return existsSync(join(this.dir(id), 'job.json'));
  }

  create(record: JobRecord, status: JobStatus): void {
    mkdirSync(this.dir(record.id), { recursive: true, mode: 0o700 });
    writeFileAtomic(join(this.dir(record.id), 'job.json'), JSON.stringify(record));
    this.writeStatus(record.id, status);
  }

  /** Takes the key for a job atomically (O_EXCL): of concurrent identical calls exactly one wins. */
  claimKey(key: string, id: string): Claim {
    const path = join(this.keysDir, key);
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        writeSync(fd, id);
        closeSync(fd);
        return { kind: 'claimed' };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = readFileSync(path, 'utf8').trim();
      // An empty file is a claim being written this very moment: look again.
      if (held) return { kind: 'held', id: held };
    }
    return { kind: 'held', id: readFileSync(path, 'utf8').trim() };
  }

  /** How long ago the key was claimed (0 when it is not there). */
  claimAgeMs(key: string): number {
    try {
      return fileAgeMs(join(this.keysDir, key));
    } catch {
      return 0;
    }
  }

  /** The job the key names now; undefined when nobody holds it. */
  keyHolder(key: string): string | undefined {
    try {
      return readFileSync(join(this.keysDir, key), 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Lets the key go, if it still names this job. */
  releaseKey(key: string, id: string): void {
    const path = join(this.keysDir, key);
    try {
      if (readFileSync(path, 'utf8').trim() === id) unlinkSync(path);
    } catch {
      // already gone
    }
  }

  /** The job's record; undefined when missing, torn or damaged. */
  readRecord(id: string): JobRecord | undefined {
    const record = readJsonFile<unknown>(join(this.dir(id), 'job.json'));
    if (!isJobRecord(record)) return undefined;
    this.check(record, this.dir(id));
    return record;
  }

  /** Whether the job's folder is there, even when its files cannot be read. */
  folderExists(id: string): boolean {
    return existsSync(this.dir(id));
  }

  /** The job's status; undefined when missing, torn or damaged. Once the job ended, the status of its end. */
  readStatus(id: string): JobStatus | undefined {
    const end = this.readEnd(id);
    if (end) return end.status;
    const status = readJsonFile<unknown>(join(this.dir(id), 'status.json'));
    return isJobStatus(status) ? status : undefined;
  }

  /**
   * Rewrites a job's status while it runs or waits; an ended job's is never
   * rewritten (a process that woke after being judged stalled writes nothing
   * over its end). Progress updates are not fsynced (a crash loses at most
   * the latest); state changes are.
   */
  writeStatus(id: string, status: JobStatus, durable = true): void {
    if (this.readEnd(id)) return;
    writeFileAtomic(join(this.dir(id), 'status.json'), JSON.stringify(status), durable);
  }

  /** The job's end, once some process wrote it. */
  readEnd(id: string): JobEnd | undefined {
    const end = readJsonFile<unknown>(join(this.dir(id), 'end.json'));
    return isJobEnd(end) ? end : undefined;
  }

  /**
   * Writes the job's end if no end is written yet: an exclusive link, so of
   * the job itself and any number of observers judging it at once exactly
   * one end is written and none replaces it. Returns whether this one won.
   * status.json then shows the end too, for whoever reads the file itself.
   */
  claimEnd(id: string, end: JobEnd): boolean {
    if (!createFileOnce(join(this.dir(id), 'end.json'), JSON.stringify(end))) return false;
    writeFileAtomic(join(this.dir(id), 'status.json'), JSON.stringify(end.status));
    return true;
  }

  /**
   * Replaces an end that left the job unfinished (`replaceable`: lost,
   * stalled) with a later verdict on the same dead job (`job cancel`
   * discarding it); a job that finished, failed or was cancelled keeps its end.
   */
  replaceObserverEnd(id: string, end: JobEnd, replaceable: readonly JobState[]): boolean {
    const earlier = this.readEnd(id);
    if (!earlier || !replaceable.includes(earlier.status.state)) return false;
    writeFileAtomic(join(this.dir(id), 'end.json'), JSON.stringify(end));
    writeFileAtomic(join(this.dir(id), 'status.json'), JSON.stringify(end.status));
    return true;
  }

  /** The final answer of an ended job (result.json: a job an older version ended). */
  readResult(id: string): JobResult | undefined {
    return this.readEnd(id)?.result ?? readJsonFile<JobResult>(join(this.dir(id), 'result.json'));
  }

  logPath(id: string): string {
    return join(this.dir(id), 'log');
  }

  logTail(id: string): string {
    try {
      const text = readFileSync(this.logPath(id));
      return text.subarray(Math.max(0, text.length - LOG_TAIL_BYTES)).toString('utf8').trim();
    } catch {
      return '';
    }
  }

  /**
   * The right to run a job: one process at a time. The lease appears whole (written aside, then linked into
   * place, which fails if one is there), so a process killed while taking it never leaves an empty one that
   * nobody could judge. A lease whose process is gone (or whose pid another process holds now) is stale and
   * is taken over; so is one left unreadable (an older version's) for a grace (stale-lease.ts).
   */
  takeLease(id: string, pid: number): boolean {
    const path = join(this.dir(id), 'lease');
    const lease = formatIdentity(identityOf(pid));
    for (let attempt = 0; attempt < 3; attempt++) {
      if (createFileOnce(path, lease, false)) return true;
      const text = readLease(path);
      if (text === undefined) continue;
      if (!isStaleLease(path, text)) return false;
      breakStaleLease(path, text);
    }
    return false;
  }

  /** Who holds the lease: 'unreadable' while its writer is between create and write (or left it so). */
  private leaseHolder(id: string): ProcessIdentity | 'gone' | 'unreadable' {
    const text = readLease(join(this.dir(id), 'lease'));
    return text === undefined ? 'gone' : parseIdentity(text) ?? 'unreadable';
  }

  /** Removes a lease whose holder is gone (a job judged lost or stalled), so none is left behind. */
  dropStaleLease(id: string): void {
    const path = join(this.dir(id), 'lease');
    const text = readLease(path);
    if (text !== undefined && isStaleLease(path, text)) breakStaleLease(path, text);
  }

  releaseLease(id: string, pid: number): void {
    const holder = this.leaseHolder(id);
    if (typeof holder === 'object' && holder.pid === pid) rmSync(join(this.dir(id), 'lease'), { force: true });
  }

  /**
   * Notes that a job's unseen answer (JobStatus.unseen) reached a caller: its end is never rewritten, so this
   * marker beside it says the answer is no longer waiting for the identical call.
   */
  markAnswerGiven(id: string): void {
    createFileOnce(join(this.dir(id), 'answer-given'), '');
  }

  /** Whether the job's answer still waits for the caller it was held for (its end says unseen, none took it). */
  answerAwaited(id: string, status: JobStatus | undefined): boolean {
    return status?.unseen === true && !existsSync(join(this.dir(id), 'answer-given'));
  }

  cancelMarker(id: string): string {
    return join(this.dir(id), 'cancel');
  }

  /** Asks the job to stop; the marker holds when it was asked (`now`, ms since the epoch). */
  requestCancel(id: string, now: number): void {
    writeFileAtomic(this.cancelMarker(id), String(now));
  }

  cancelRequested(id: string): boolean {
    return existsSync(this.cancelMarker(id));
  }

  list(): string[] {
    return readdirSync(this.jobsDir).filter((name) => this.exists(name));
  }

  /** The names in the jobs folder, unchecked: one read of the folder, for a walk that opens few of them. */
  names(): string[] {
    return readdirSync(this.jobsDir);
  }

  /** Sweeps unless a sweep ran in the last SWEEP_EVERY_MS on `clock` (one small read when not due). */
  sweepWhenDue(clock: () => number): void {
    const now = clock();
    const marker = join(this.root, LAST_SWEEP_FILE);
    let last = -Infinity;
    try {
      last = Number(readFileSync(marker, 'utf8'));
    } catch {
      // never swept here
    }
    if (now - last < SWEEP_EVERY_MS) return;
    writeFileAtomic(marker, String(now));
    this.sweep(clock);
  }

  /** Removes jobs that ended more than the retention period ago (their files go within a time slice on `clock`). */
  sweep(clock: () => number, retentionMs = JOB_RETENTION_MS): void {
    const now = clock();
    const pruned = new PrunedJobs(this.root);
    for (const id of this.list()) {
      const status = this.readStatus(id);
      if (status && isExpired(status, now, retentionMs)) pruned.take(this.dir(id), id);
    }
    pruned.deleteFor(DELETE_SLICE_MS, clock);
    // Temp files a killed writer left behind.
    for (const id of readdirSync(this.jobsDir)) {
      const dir = this.dir(id);
      try {
        if (!statSync(dir).isDirectory()) continue;
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (name.endsWith('.tmp') && fileAgeMs(path) > 60_000) rmSync(path, { force: true });
        }
      } catch {
        // raced with another sweep
      }
    }
  }
}
