import { statSync } from 'node:fs';

/**
 * How long ago the file was last written (throws when it is not there). An mtime is the OS's wall clock, so it is
 * read against the OS's clock, not the Host's: a test's fake clock moves no file's mtime.
 */
export function fileAgeMs(path: string): number {
  return Date.now() - statSync(path).mtimeMs;
}
