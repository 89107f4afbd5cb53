// `progress.done` as every observer of a schedule sees it: the calls' answers,
// the jobs' status files (read while each call runs and after it), and the
// heartbeat lines on the calls' stderr. None may ever see it go back: per job,
// and across the jobs that continue one another's checkpoint (a lineage, which
// only a `job cancel` or the work's end starts over).
//
// A run that ended (done, cancelled, timed out, or failed for good: its checkpoint gone) ends its lineage: a job
// begun after that end is a new run, in the next generation of the lineage, and starts from nothing. A job that
// continues a lost, stalled or retryably failed one stays in the same generation and must start where it left.
//
// Time orders what is compared. Within one call each observer's own figures
// must never fall; every figure a call shows must be at least what anyone saw
// before the call began (calls of one schedule follow one another, but for the
// ones started together). Figures of different observers within one call are
// not compared with each other: which came first is not known here (a status
// read 25 ms after a heartbeat line was printed, an answer read after the
// status the answering process wrote on its way out).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Envelope } from '../../src/contract/envelope.js';
import { workEnded } from '../../src/runtime/call/final-envelope.js';

/** The exact figures a heartbeat line ends with: `[12582912/30000000 bytes, 20586 rows]`. */
const HEARTBEAT_FIGURES = /\[(\d+)(?:\/\d+)? [a-z]+(?:, \d+ rows?)?\]\s*$/;

/** The `done` a heartbeat line ends with, or undefined for any other line. */
export function heartbeatDone(line: string): number | undefined {
  const figures = HEARTBEAT_FIGURES.exec(line);
  return figures ? Number(figures[1]) : undefined;
}
const LINEAGE = 'the work';
const LIVE: readonly string[] = ['running', 'paused'];
/** Ends after which the identical call is a new run: the checkpoint was discarded. */
const RUN_ENDS: readonly string[] = ['done', 'cancelled', 'timed_out'];
const lineageOf = (generation: number): string => `${LINEAGE}@${generation}`;

/** Where a `done` was seen. */
export type Observer = 'answer' | 'status' | 'heartbeat';

/** Highest `done` seen, by what it is of (a job id, or the lineage). */
type Seen = Map<string, number>;

const raise = (seen: Seen, of: string, done: number) => seen.set(of, Math.max(seen.get(of) ?? 0, done));

/** What a figure is of: a job, and whether the work's lineage (of `lineageOf`'s job when it names no job). */
interface Subject {
  readonly jobId?: string;
  readonly lineage: boolean;
  readonly lineageOf?: string;
}

/** What one call's observers saw, checked against what was seen before it began. */
export class CallProgress {
  private readonly own = new Map<Observer, Seen>();
  readonly seen: Seen = new Map();
  /** The lineage's generation when the call began: its heartbeats' when its answer names no job. */
  private readonly began: number;
  private readonly heartbeatFigures: number[] = [];
  private answeredJob: string | undefined;

  constructor(
    private readonly watch: ProgressWatch,
    private readonly before: ReadonlyMap<string, number>,
    private readonly label: string,
  ) {
    this.began = watch.generation();
  }

  /**
   * A `done` seen by one observer of this call: of a job when known, and of the lineage when it is the work's
   * (the lineage of `lineageOf`'s job, when the figure names none itself, as a heartbeat line does).
   */
  saw(done: number, observer: Observer, of: Subject): void {
    const named = of.jobId ?? of.lineageOf;
    const generation = named !== undefined ? this.watch.generationOf(named) : this.began;
    const lineage = lineageOf(generation);
    const subjects = [...(of.jobId !== undefined ? [of.jobId] : []), ...(of.lineage ? [lineage] : [])];
    const mine = this.own.get(observer) ?? new Map<string, number>();
    this.own.set(observer, mine);
    for (const subject of subjects) {
      const what = subject === lineage ? `the work${named !== undefined ? ` (job ${named})` : ''}` : `job ${subject}`;
      const earlier = this.before.get(subject) ?? 0;
      const own = mine.get(subject) ?? 0;
      const shows = `${this.label}: its ${observer} shows ${what} at ${done}`;
      if (done < earlier) this.watch.violate(`${shows}, after ${earlier} was seen before the call`);
      else if (done < own) this.watch.violate(`${shows} after ${own}`);
      raise(mine, subject, done);
      raise(this.seen, subject, done);
    }
  }

  /** Every progress an answer carries: a 14's, and the one a stopped answer names with its unresolved work. */
  answer(envelope: Envelope<Record<string, unknown>>): void {
    const data = (envelope.data ?? {}) as {
      job_id?: string;
      progress?: { done: number };
      unresolved?: { context?: { job_id?: string; progress?: { done: number } } }[];
    };
    const lineage = envelope.meta.command === this.watch.workload || this.watch.isWorkload(data.job_id);
    if (lineage && data.job_id !== undefined) this.answeredJob = data.job_id;
    if (data.progress) this.saw(data.progress.done, 'answer', { ...jobOf(data.job_id), lineage });
    for (const item of data.unresolved ?? []) {
      const { progress, job_id: jobId } = item.context ?? {};
      if (progress) this.saw(progress.done, 'answer', { ...jobOf(jobId ?? data.job_id), lineage });
    }
  }

  /** The heartbeat lines of this call, in order: checked at its end, as figures of the job its answer names. */
  heartbeats(stderr: string): void {
    for (const line of stderr.split('\n')) {
      const done = heartbeatDone(line);
      if (done !== undefined) this.heartbeatFigures.push(done);
    }
  }

  /** Every job's status file as it is now. */
  statuses(): void {
    for (const id of this.watch.jobIds()) {
      const status = this.watch.statusOf(id);
      if (status?.progress === undefined) continue;
      // A job that ended keeps its last figure; the lineage goes on (or starts over) in the jobs after it.
      const lineage = LIVE.includes(status.state) && this.watch.isWorkload(id);
      this.saw(status.progress.done, 'status', { jobId: id, lineage });
    }
  }

  /** The call is over: what it saw is what the calls after it must not go below. */
  end(): void {
    // A heartbeat line names no job: the one the answer names, else the lineage as the call found it.
    const of = this.answeredJob !== undefined ? { lineageOf: this.answeredJob } : {};
    for (const done of this.heartbeatFigures) this.saw(done, 'heartbeat', { lineage: true, ...of });
    this.watch.merge(this.seen);
  }
}

export class ProgressWatch {
  private readonly seen: Seen = new Map();
  private readonly commands = new Map<string, string>();
  /** Written once each (a job's record, its end): read once. */
  private readonly made = new Map<string, number>();
  private readonly runEnds = new Map<string, number>();
  /** Fixed once the job exists: every run that ended before it was made had written its end by then. */
  private readonly generations = new Map<string, number>();

  /** `workload`: the command whose jobs continue one another (import or analyze; an export's are its own). */
  constructor(
    private readonly home: string,
    readonly workload: string,
    readonly violate: (detail: string) => void,
  ) {}

  /** A call begins: its figures are checked against everything seen so far. */
  begin(label: string): CallProgress {
    return new CallProgress(this, new Map(this.seen), label);
  }

  merge(seen: ReadonlyMap<string, number>): void {
    for (const [of, done] of seen) raise(this.seen, of, done);
  }

  /** The work starts over from nothing (its checkpoint discarded by a cancel, or the work ended). */
  startOver(): void {
    for (const of of [...this.seen.keys()]) if (of.startsWith(LINEAGE)) this.seen.delete(of);
  }

  /** How many runs of the workload had ended (its checkpoint discarded) by now. */
  generation(): number {
    return this.jobIds().filter((id) => this.isWorkload(id) && this.endedRun(id) !== undefined).length;
  }

  /** The generation a job belongs to: how many runs of the workload had ended when it was made. */
  generationOf(id: string): number {
    const known = this.generations.get(id);
    if (known !== undefined) return known;
    const made = this.createdAt(id);
    if (made === undefined) return this.generation();
    const generation = this.jobIds().filter((other) => {
      const ended = other !== id && this.isWorkload(other) ? this.endedRun(other) : undefined;
      return ended !== undefined && ended <= made;
    }).length;
    this.generations.set(id, generation);
    return generation;
  }

  /** When a workload job's run ended for good (an end that discarded its checkpoint); undefined otherwise. */
  private endedRun(id: string): number | undefined {
    // Only a run's end is kept: a lost or stalled end may still be replaced (a cancel of a lost job).
    if (this.runEnds.has(id)) return this.runEnds.get(id);
    const end = readJson<{ status: { state: string; endedAt?: number }; result?: { meta?: { exit_code?: number } } }>(
      join(this.home, 'jobs', id, 'end.json'));
    if (!end) return undefined;
    const { state, endedAt } = end.status;
    const failedForGood = state === 'failed' && workEnded(end.result?.meta?.exit_code ?? 1);
    if (!(RUN_ENDS.includes(state) || failedForGood) || endedAt === undefined) return undefined;
    this.runEnds.set(id, endedAt);
    return endedAt;
  }

  private createdAt(id: string): number | undefined {
    if (!this.made.has(id)) {
      const made = readJson<{ createdAt: number }>(join(this.home, 'jobs', id, 'job.json'))?.createdAt;
      if (made !== undefined) this.made.set(id, made);
    }
    return this.made.get(id);
  }

  jobIds(): string[] {
    try {
      return readdirSync(join(this.home, 'jobs'));
    } catch {
      return [];
    }
  }

  statusOf(id: string): { state: string; progress?: { done: number } } | undefined {
    return readJson(join(this.home, 'jobs', id, 'status.json'));
  }

  isWorkload(id: string | undefined): boolean {
    if (id === undefined) return false;
    if (!this.commands.has(id)) {
      const record = readJson<{ command: string[] }>(join(this.home, 'jobs', id, 'job.json'));
      if (!record) return false;
      this.commands.set(id, record.command.join(' '));
    }
    return this.commands.get(id) === this.workload;
  }
}

const jobOf = (id: string | undefined): { jobId?: string } => (id !== undefined ? { jobId: id } : {});

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    // Not written yet, or being replaced: the next look reads it whole.
    return undefined;
  }
}
