import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';

export const STATE_DIR_ENV = 'STINT_HOME';

/** STINT_HOME, else $XDG_STATE_HOME/stint, else ~/.local/state/stint. */
export function stateDirPath(env: Readonly<Record<string, string | undefined>>): string {
  if (env[STATE_DIR_ENV]) return env[STATE_DIR_ENV]!;
  if (env['XDG_STATE_HOME']) return join(env['XDG_STATE_HOME'], 'stint');
  return join(homedir(), '.local', 'state', 'stint');
}

/** Creates the folder (and `sub`) private to this user (0700), or says why it cannot. */
export function ensurePrivateDir(root: string, ...sub: string[]): string {
  const path = join(root, ...sub);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    if ((statSync(root).mode & 0o077) !== 0) chmodSync(root, 0o700);
    if (sub.length) mkdirSync(path, { recursive: true, mode: 0o700 });
    return path;
  } catch (error) {
    throw unusable(root, error);
  }
}

/** errno codes that mean the state folder refuses writes (a full disk is NO_SPACE instead). */
const UNUSABLE_ERRNOS = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOTDIR']);

/** Runs job-state I/O; a folder that refuses writes is STATE_DIR_UNUSABLE, not an internal error. */
export function inStateDir<T>(root: string, io: () => T): T {
  try {
    return io();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined || !UNUSABLE_ERRNOS.has(code)) throw error;
    throw unusable(root, error);
  }
}

function unusable(root: string, error: unknown): StintError {
  const message = `cannot use the state folder ${root}: ${(error as Error).message}`;
  return new StintError(ErrorCode.StateDirUnusable, message, {
    context: { path: root },
    fix_required: `Make ${root} writable by this user, or set ${STATE_DIR_ENV} to a folder that is`,
  });
}
