import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/**
 * Writes a file so that readers see the old content or the new, never a
 * part: a temp file in the same folder, fsync, rename (REQ-F-070).
 */
export function writeFileAtomic(path: string, content: string | Uint8Array, durable = true): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Parses a small JSON file, or undefined when it is missing or torn. */
export function readJsonFile<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
