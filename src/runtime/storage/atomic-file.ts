import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/**
 * Writes a file so that readers see the old content or the new, never a
 * part (a crash leaves no half-written state file): a temp file in the same folder, fsync, rename.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array, durable = true): void {
  const temp = writeTemp(path, content, durable);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Creates the file whole (content fsynced, then linked into place) unless
 * it exists: of any number of writers racing, exactly one wins, and readers
 * never see a part. Returns whether this writer created it. `durable: false` skips the fsync, for a file
 * that means nothing after a restart (a lease names processes).
 */
export function createFileOnce(path: string, content: string | Uint8Array, durable = true): boolean {
  const temp = writeTemp(path, content, durable);
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

function writeTemp(path: string, content: string | Uint8Array, durable: boolean): string {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return temp;
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
