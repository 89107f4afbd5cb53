import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isTerminal, type JobState } from '../../contract/vocabulary/job-state.js';
import { writeFileAtomic } from '../storage/atomic-file.js';

const INDEX_FILE = 'ended-jobs';

/** An ended job as a listing orders, filters and counts it, without opening its folder. */
export interface EndedEntry {
  readonly id: string;
  readonly createdAt: number;
  readonly state: JobState;
  readonly updatedAt: number;
  readonly endedAt?: number;
}

function isEntry(value: unknown): value is EndedEntry {
  const entry = value as Partial<EndedEntry> | null;
  return typeof entry === 'object' && entry !== null && typeof entry.id === 'string'
    && typeof entry.createdAt === 'number' && typeof entry.updatedAt === 'number'
    && typeof entry.state === 'string' && isTerminal(entry.state)
    && (entry.endedAt === undefined || typeof entry.endedAt === 'number');
}

/**
 * What the listings learned of ended jobs, one JSON line a job. An ended job
 * never changes again, so a listing reads its two files once and this line
 * ever after: with ten thousand jobs that is the difference between reading
 * twenty thousand files and one. A cache, not a record: lines are appended
 * by whoever saw a job end (one write each, so concurrent listings do not
 * interleave), a torn or foreign line is skipped, a lost line is only read
 * again, and a job whose folder is gone is not listed whatever its line says.
 */
export class EndedIndex {
  private readonly path: string;

  constructor(root: string) {
    this.path = join(root, INDEX_FILE);
  }

  read(): Map<string, EndedEntry> {
    const entries = new Map<string, EndedEntry>();
    let text = '';
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return entries;
    }
    for (const line of text.split('\n')) {
      try {
        const entry: unknown = JSON.parse(line);
        if (isEntry(entry)) entries.set(entry.id, entry);
      } catch {
        // torn by a writer that died mid-line, or not ours
      }
    }
    return entries;
  }

  add(entries: readonly EndedEntry[]): void {
    if (entries.length === 0) return;
    // A leading newline ends a line torn by a writer that died mid-line, so this one is not joined to it.
    const text = `${entries.map((entry) => `\n${JSON.stringify(entry)}`).join('')}\n`;
    appendFileSync(this.path, text, { mode: 0o600 });
  }

  /** Keeps only these entries (the others' jobs are gone); a line appended meanwhile may be lost, and read again. */
  rewrite(entries: Iterable<EndedEntry>): void {
    writeFileAtomic(this.path, [...entries].map((entry) => `${JSON.stringify(entry)}\n`).join(''), false);
  }
}
