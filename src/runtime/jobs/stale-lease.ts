import { readFileSync, rmSync } from 'node:fs';
import { createFileOnce } from '../storage/atomic-file.js';
import { fileAgeMs } from '../storage/file-age.js';
import { isAlive, parseIdentity } from './process-identity.js';

/**
 * A lease still unreadable after this long (an older version's writer killed mid-write), or a break mark this old
 * (its breaker killed between making and removing it), was left by a process that is gone.
 */
const WRITE_GRACE_MS = 2_000;

/** The lease file's text; undefined when there is none. */
export function readLease(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether the lease holding `text` is stale: its process is gone, or it is unreadable past WRITE_GRACE_MS. */
export function isStaleLease(path: string, text: string): boolean {
  const holder = parseIdentity(text);
  return holder ? !isAlive(holder) : leftBehind(path, true);
}

/**
 * Removes the lease at `path` if it still holds `text`, a holding judged stale (its process gone). Looking and
 * removing are two steps: two processes that judged the same holding stale could otherwise both remove it, the
 * second removing the lease a third process took in between. An exclusive mark per holding lets one at a time
 * look and remove. A holding's text (a pid and its start time) is never held again once its process is gone, so a
 * process that looks after the break finds other text, or none, and leaves that alone.
 */
export function breakStaleLease(path: string, text: string): void {
  const mark = `${path}.breaking-${holdingName(text)}`;
  if (!createFileOnce(mark, '', false)) {
    // Another process is breaking this holding now; a mark past its grace was left by one killed meanwhile.
    if (!leftBehind(mark, false)) return;
    rmSync(mark, { force: true });
    if (!createFileOnce(mark, '', false)) return;
  }
  try {
    if (readLease(path) === text) rmSync(path, { force: true });
  } finally {
    rmSync(mark, { force: true });
  }
}

/** A file name part for a holding: its pid and start time; unreadable holdings share one. */
function holdingName(text: string): string {
  const holder = parseIdentity(text);
  return holder ? `${holder.pid}-${holder.start ?? 'any'}` : 'unreadable';
}

/** Whether the file at `path` is older than WRITE_GRACE_MS; `whenGone` if it went meanwhile. */
function leftBehind(path: string, whenGone: boolean): boolean {
  try {
    return fileAgeMs(path) > WRITE_GRACE_MS;
  } catch {
    return whenGone;
  }
}
