// A small tmpfs of a test's own, for a full disk on demand (tests run as root, as CI does).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Mounts a tmpfs of `size` (as mount spells it: 64k, 3m) at `dir`; false where mounting is not allowed. */
export function mountTmpfs(dir: string, size: string): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Changes a mounted tmpfs's options (`size=64m`: room again). */
export const remount = (dir: string, options: string) =>
  execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'ignore' });

export const unmount = (dir: string) => execFileSync('umount', ['-l', dir], { stdio: 'ignore' });

/** Why a tmpfs cannot be mounted under `parent`, or false when it can: a test that needs one skips with it. */
export function tmpfsMissing(parent: string): string | false {
  const dir = join(parent, 'tmpfs-probe');
  if (!mountTmpfs(dir, '64k')) return 'cannot mount a tmpfs here (these tests need root, as CI has)';
  execFileSync('umount', [dir], { stdio: 'ignore' });
  return false;
}
