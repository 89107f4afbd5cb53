import {
  closeSync, constants, fchmodSync, fchownSync, fstatSync, fsyncSync, ftruncateSync, lstatSync, openSync, readdirSync,
  renameSync, rmSync, writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { OutputTarget } from './output-target.js';

/** Partial files of other runs untouched this long belong to runs nobody continued (finished jobs are kept as long). */
const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;
const KEY_CHARS = 12;

/** How far a partial file goes: saved in the checkpoint, checked before the file is written on. */
export interface PartialMark {
  readonly bytes: number;
  /** Its inode: a file put at its name since is not ours to continue. */
  readonly ino: number;
}

/** `.<name>.stint-<run key>.partial` beside the target: the same run (and its continuations) finds it again. */
export function partialPathFor(target: string, runKey: string): string {
  return join(dirname(target), `.${basename(target)}.stint-${runKey.slice(0, KEY_CHARS)}.partial`);
}

/** Whether the partial file is still the one the mark describes, and at least as long. */
export function partialMatches(path: string, mark: PartialMark): boolean {
  try {
    const stats = lstatSync(path);
    return stats.isFile() && stats.ino === mark.ino && stats.size >= mark.bytes;
  } catch {
    return false;
  }
}

/** Opens the partial file cut back to the mark: what was written after the last checkpoint is written again. */
export function reopenPartial(path: string, mark: PartialMark): number {
  const fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
  ftruncateSync(fd, mark.bytes);
  return fd;
}

/**
 * Creates the partial file anew. Whatever stood at its name goes first and
 * the file is made exclusively, never through a link; it gets the replaced
 * file's permissions from the start, so a private file's rows are never
 * readable by others on the way.
 */
export function createPartial(path: string, target: OutputTarget): { fd: number; ino: number } {
  rmSync(path, { force: true });
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const fd = openSync(path, flags, target.existing?.mode ?? 0o666);
  if (target.existing) fchmodSync(fd, target.existing.mode);
  return { fd, ino: fstatSync(fd).ino };
}

/** Writes all of `bytes` at `position`. */
export function writeAt(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/** Makes the complete partial file the target in one rename: synced, with the replaced file's permissions and owner. */
export function commitPartial(fd: number, path: string, target: OutputTarget): void {
  if (target.existing) {
    fchmodSync(fd, target.existing.mode);
    try {
      fchownSync(fd, target.existing.uid, target.existing.gid);
    } catch {
      // Only root may give a file to another owner; otherwise it stays the caller's.
    }
  }
  fsyncSync(fd);
  renameSync(path, target.path);
  syncFolder(dirname(target.path));
}

/** The rename is durable once the folder is synced. */
function syncFolder(folder: string): void {
  let fd = -1;
  try {
    fd = openSync(folder, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Some file systems refuse to sync a folder; the rename itself is done.
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** Removes other runs' partial files for this target that nobody touched for a day: their runs are not coming back. */
export function sweepStalePartials(target: string, own: string, now: number): void {
  const folder = dirname(target);
  const prefix = `.${basename(target)}.stint-`;
  try {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (!name.startsWith(prefix) || !name.endsWith('.partial') || path === own) continue;
      const stats = lstatSync(path);
      if (stats.isFile() && now - stats.mtimeMs > STALE_PARTIAL_MS) rmSync(path, { force: true });
    }
  } catch {
    // A folder we cannot list, or a file gone meanwhile: nothing to sweep.
  }
}
