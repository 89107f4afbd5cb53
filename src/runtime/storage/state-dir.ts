import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { checkAncestors, ensureOwnedDir } from './owned-dir.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The variable that names a program's state folder: `mytool` -> MYTOOL_HOME, `demo-jobs` -> DEMO_JOBS_HOME. */
export function stateDirEnvOf(programName: string): string {
  return `${programName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_HOME`;
}

/** stint's own: STINT_HOME. */
export const STATE_DIR_ENV = stateDirEnvOf('stint');

/** Where this user's machine keeps a program's state when nothing is set. */
export interface Machine {
  readonly platform: NodeJS.Platform;
  readonly home: string;
}

const thisMachine = (): Machine => ({ platform: process.platform, home: homedir() });

/**
 * A program's state folder: <NAME>_HOME, else $XDG_STATE_HOME/<name>, else the
 * OS default (~/.local/state/<name>; macOS ~/Library/Application Support/<name>;
 * Windows %LOCALAPPDATA%\<name>). Each program has its own, so its jobs are its own.
 */
export function stateDirPath(env: Env, programName: string, machine: Machine = thisMachine()): string {
  const own = env[stateDirEnvOf(programName)];
  if (own) return own;
  if (env['XDG_STATE_HOME']) return join(env['XDG_STATE_HOME'], programName);
  if (machine.platform === 'win32') {
    return win32.join(env['LOCALAPPDATA'] ?? win32.join(machine.home, 'AppData', 'Local'), programName);
  }
  if (machine.platform === 'darwin') return posix.join(machine.home, 'Library', 'Application Support', programName);
  return posix.join(machine.home, '.local', 'state', programName);
}

/**
 * Creates the folder (and `sub`) private to this user (0700), or says why it cannot. A folder that is
 * there already must be ours (see owned-dir.ts): it is used as it is, never chmod-ed, or refused.
 */
export function ensurePrivateDir(root: string, ...sub: string[]): string {
  let path = root;
  try {
    checkAncestors(root);
    ensureOwnedDir(root, true);
    for (const part of sub) ensureOwnedDir((path = join(path, part)), false);
    return path;
  } catch (error) {
    if (error instanceof StintError) throw error;
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
    throw refusal(root, error);
  }
}

/** inStateDir for I/O that awaits. */
export async function inStateDirAsync<T>(root: string, io: () => Promise<T>): Promise<T> {
  try {
    return await io();
  } catch (error) {
    throw refusal(root, error);
  }
}

/** The error to throw for `error`: STATE_DIR_UNUSABLE when the folder refuses writes, else itself. */
function refusal(root: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined && UNUSABLE_ERRNOS.has(code) ? unusable(root, error) : error;
}

function unusable(root: string, error: unknown): StintError {
  const message = `cannot use the state folder ${root}: ${(error as Error).message}`;
  return new StintError(ErrorCode.StateDirUnusable, message, {
    context: { path: root },
    fix_required: `Make ${root} writable by this user, or set the program's <NAME>_HOME (${STATE_DIR_ENV} for stint) `
      + 'to a folder that is',
  });
}
