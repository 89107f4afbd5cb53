import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../storage/state-dir.js';

const PRUNED_DIR = 'pruned';
/** How long one call spends deleting removed jobs' files; what is left waits for the next prune or sweep. */
export const DELETE_SLICE_MS = 1_000;

/**
 * Ended jobs on their way out. Deleting a job's files is several metadata
 * writes to the disk (tens of seconds for ten thousand jobs on a busy disk),
 * renaming its folder is one: a removed job leaves every listing at once,
 * by a rename into this folder, and its files are deleted a time slice at a time.
 */
export class PrunedJobs {
  private readonly dir: string;

  constructor(root: string) {
    this.dir = ensurePrivateDir(root, PRUNED_DIR);
  }

  /** Moves a job's folder out of the jobs; false when it was not there (another call took it first). */
  take(jobDir: string, id: string): boolean {
    try {
      // A suffix: a folder of the same name may still wait here.
      renameSync(jobDir, join(this.dir, `${id}.${randomBytes(4).toString('hex')}`));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Deletes taken folders until `sliceMs` has passed on `clock` (at least one); returns how many are left. */
  deleteFor(sliceMs: number, clock: () => number): number {
    const names = readdirSync(this.dir);
    const until = clock() + sliceMs;
    let deleted = 0;
    for (const name of names) {
      if (deleted > 0 && clock() >= until) break;
      try {
        rmSync(join(this.dir, name), { recursive: true, force: true });
      } catch {
        // another call is deleting it too
      }
      deleted++;
    }
    return names.length - deleted;
  }
}
