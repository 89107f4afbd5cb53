import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** Read in pieces of this size, so a digest holds no whole chunk in memory. */
const PIECE = 1 << 20;

/**
 * A digest of the file's bytes in [start, end): the coordinator takes it of each chunk's planned range as it
 * cuts the chunk, and a worker takes it again before it maps. Size and mtime alone let a different file at
 * the same path (another machine's copy, regenerated with the same size) pass for the same input.
 */
export function rangeDigest(path: string, start: number, end: number): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const piece = Buffer.allocUnsafe(Math.min(PIECE, Math.max(1, end - start)));
    for (let at = start; at < end;) {
      const read = readSync(fd, piece, 0, Math.min(piece.length, end - at), at);
      if (read === 0) break;
      hash.update(piece.subarray(0, read));
      at += read;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
