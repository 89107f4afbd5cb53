import { readFileSync, rmSync } from 'node:fs';
import { createFileOnce } from '../storage/atomic-file.js';
import { fileAgeMs } from '../storage/file-age.js';
import { parseIdentity } from './process-identity.js';

/** A break mark older than this was left by a process killed between making it and removing it. */
const MARK_GRACE_MS = 2_000;

/** The lease file's text; undefined when there is none. */
export function readLease(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
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
    if (!markAbandoned(mark)) return;
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

function markAbandoned(mark: string): boolean {
  try {
    return fileAgeMs(mark) > MARK_GRACE_MS;
  } catch {
    // Gone meanwhile: its breaker finished.
    return false;
  }
}
