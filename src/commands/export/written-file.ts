import { statSync } from 'node:fs';
import type { KeptClaim } from '../../runtime/authoring/command-spec.js';

/**
 * What a finished export claims of its file: there, as it was written. The inode, size and change time say
 * so without reading the file again (a digest would cost a full read at the end and at every repeat). The
 * change time, unlike the modification time, cannot be set back: any write, replacement or removal moves one
 * of them, and then a repeat exports again rather than claim a file that is not there.
 */
export interface WrittenFile {
  readonly path: string;
  readonly ino: number;
  readonly size: number;
  readonly ctimeMs: number;
}

export function writtenFile(path: string): WrittenFile {
  const { ino, size, ctimeMs } = statSync(path);
  return { path, ino, size, ctimeMs };
}

/** The export command's answerHolds: its file is still the one it wrote. */
export function stillWritten({ claim }: KeptClaim): boolean {
  const file = claim as Partial<WrittenFile> | undefined;
  if (typeof file?.path !== 'string') return false;
  const now = statSync(file.path, { throwIfNoEntry: false });
  return now !== undefined && now.isFile() && now.ino === file.ino && now.size === file.size
    && now.ctimeMs === file.ctimeMs;
}
