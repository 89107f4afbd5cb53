// `progress.done` as every observer of a schedule sees it: the calls' answers,
// the jobs' status files (read while each call runs and after it), and the
// heartbeat lines on the calls' stderr. None may ever see it go back: per job,
// and across the jobs that continue one another's checkpoint (a lineage, which
// only a `job cancel` or the work's end starts over).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Envelope } from '../../src/contract/envelope.js';

/** The exact figures a heartbeat line ends with: `[12582912/30000000 bytes, 20586 rows]`. */
const HEARTBEAT_FIGURES = /\[(\d+)(?:\/\d+)? [a-z]+(?:, \d+ rows?)?\]\s*$/;

/** Where a `done` was seen, for a finding's detail. */
export type Observer = 'answer' | 'status' | 'heartbeat';

export class ProgressWatch {
  private readonly byJob = new Map<string, number>();
  private readonly commands = new Map<string, string>();
  private lineage = 0;

  /** `workload`: the command whose jobs continue one another (import or analyze; an export's are its own). */
  constructor(
    private readonly home: string,
    private readonly workload: string,
    private readonly violate: (detail: string) => void,
  ) {}

  /** A `done` seen by one observer: of one job when known, and of the workload's lineage when it is the workload. */
  saw(done: number, observer: Observer, where: string, of: { jobId?: string; lineage: boolean }): void {
    const { jobId } = of;
    if (jobId !== undefined) {
      const before = this.byJob.get(jobId) ?? 0;
      if (done < before) this.violate(`${where}: job ${jobId}'s ${observer} shows done ${done} after ${before}`);
      this.byJob.set(jobId, Math.max(before, done));
    }
    if (!of.lineage) return;
    if (done < this.lineage) this.violate(`${where}: the ${observer} shows done ${done} after ${this.lineage} was seen`);
    this.lineage = Math.max(this.lineage, done);
  }

  /** The work starts over from nothing (its checkpoint discarded by a cancel, or the work ended). */
  startOver(): void {
    this.lineage = 0;
  }

  /** Every progress an answer carries: a 14's, and the one a stopped answer names with its unresolved work. */
  answer(envelope: Envelope<Record<string, unknown>>, where: string): void {
    const lineage = envelope.meta.command === this.workload || this.isWorkload(envelopeJob(envelope));
    const data = (envelope.data ?? {}) as {
      job_id?: string;
      progress?: { done: number };
      unresolved?: { context?: { job_id?: string; progress?: { done: number } } }[];
    };
    if (data.progress) this.saw(data.progress.done, 'answer', where, { jobId: data.job_id, lineage });
    for (const item of data.unresolved ?? []) {
      const { progress, job_id: jobId } = item.context ?? {};
      if (progress) this.saw(progress.done, 'answer', where, { jobId: jobId ?? data.job_id, lineage });
    }
  }

  /** The heartbeat lines of one call, in order. */
  heartbeats(stderr: string, where: string): void {
    for (const line of stderr.split('\n')) {
      const figures = HEARTBEAT_FIGURES.exec(line);
      if (figures) this.saw(Number(figures[1]), 'heartbeat', where, { lineage: true });
    }
  }

  /** Every job's status file as it is now. */
  statuses(where: string): void {
    let ids: string[];
    try {
      ids = readdirSync(join(this.home, 'jobs'));
    } catch {
      return;
    }
    for (const id of ids) {
      const status = readJson<{ state: string; progress?: { done: number } }>(this.jobFile(id, 'status.json'));
      if (status?.progress === undefined) continue;
      // A job that ended keeps its last figure; the lineage goes on (or starts over) in the jobs after it.
      const lineage = LIVE.includes(status.state) && this.isWorkload(id);
      this.saw(status.progress.done, 'status', where, { jobId: id, lineage });
    }
  }

  private isWorkload(id: string | undefined): boolean {
    if (id === undefined) return false;
    if (!this.commands.has(id)) {
      const record = readJson<{ command: string[] }>(this.jobFile(id, 'job.json'));
      if (!record) return false;
      this.commands.set(id, record.command.join(' '));
    }
    return this.commands.get(id) === this.workload;
  }

  private jobFile(id: string, name: string): string {
    return join(this.home, 'jobs', id, name);
  }
}

const LIVE: readonly string[] = ['running', 'paused'];

function envelopeJob(envelope: Envelope<Record<string, unknown>>): string | undefined {
  const id = (envelope.data as { job_id?: unknown } | null)?.job_id;
  return typeof id === 'string' ? id : undefined;
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    // Not written yet, or being replaced: the next look reads it whole.
    return undefined;
  }
}
